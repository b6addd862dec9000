#ifndef FITIQ_CNCURSES_SHIM_H
#define FITIQ_CNCURSES_SHIM_H

// Wide-character ncurses without pkg-config (whose flags SwiftPM drops): see docs/ncurses.md
// "Wide characters without pkg-config".
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdlib.h>
#include <string.h>
#include <ncurses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

// Attributes are macros Swift cannot import.
static const attr_t fitiq_A_NORMAL = A_NORMAL;
static const attr_t fitiq_A_BOLD = A_BOLD;
static const attr_t fitiq_A_REVERSE = A_REVERSE;
static const attr_t fitiq_A_UNDERLINE = A_UNDERLINE;
static const attr_t fitiq_A_DIM = A_DIM;

// C globals are not concurrency-safe in Swift 6: read them through functions.
static inline WINDOW *fitiq_stdscr(void) { return stdscr; }
static inline int fitiq_colors(void) { return COLORS; }
static inline attr_t fitiq_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }

// Hidden by glibc's feature macros.
extern int wcwidth(wchar_t);

// `stdout` and `stdin` are C globals too. `newterm` (unlike `initscr`) returns NULL for an unknown
// TERM instead of exiting the process, so opening the terminal can throw.
static inline SCREEN *fitiq_newterm(const char *term) { return newterm(term, stdout, stdin); }
// Whether terminfo has an entry for `name`, without opening the terminal: setupterm loads it into a
// terminal of its own, which is dropped again. (From <term.h>, which is not included: its capability
// macros, such as `lines` and `columns`, would clash with ordinary names.)
struct term;
extern struct term *set_curterm(struct term *);
extern int del_curterm(struct term *);
extern int setupterm(const char *, int, int *);
static inline int fitiq_terminfo_has(const char *name) {
    int status = 0;
    struct term *before = set_curterm(NULL);
    int found = setupterm(name, STDOUT_FILENO, &status) == OK && status == 1;
    struct term *loaded = set_curterm(before);
    if (loaded != NULL && loaded != before) del_curterm(loaded);
    return found;
}
static inline int fitiq_stdio_are_terminals(void) { return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); }

// Restoring the terminal on signals and at exit. Written in C, not Swift, so the handler does no
// allocation, reference counting or lazy global initialisation: it clears a flag, calls endwin()
// and then either chains to the handler that was installed before (e.g. the Swift runtime's crash
// backtracer) or re-raises the signal with its default action, so the exit status still says
// "killed by signal". endwin() is not async-signal-safe (it writes through ncurses' buffers); the
// process is about to die, and leaving the terminal in raw mode is the worse outcome, the same
// trade-off ncurses' own SIGINT/SIGTERM handler makes. Only the NcursesTerminal target uses these.
// The state lives in function-local statics: Swift's importer does not emit file-scope ones. Each
// object file that calls these inline functions gets its own copy of those statics, so a flag a
// handler sets is read only in the Swift file that installs the handler (NcursesScreen.swift).
static inline volatile sig_atomic_t *fitiq_curses_active_flag(void) {
    static volatile sig_atomic_t active = 0;
    return &active;
}
static inline struct sigaction *fitiq_previous_action(int sig) {
    static struct sigaction previous[NSIG];
    return &previous[sig];
}

static inline void fitiq_set_curses_active(int active) { *fitiq_curses_active_flag() = active ? 1 : 0; }
static inline int fitiq_is_curses_active(void) { return *fitiq_curses_active_flag() != 0; }

static void fitiq_restore_on_signal(int sig, siginfo_t *info, void *context) {
    if (fitiq_is_curses_active()) {
        fitiq_set_curses_active(0);
        endwin();
        // Bracketed paste and mouse reports off (endwin leaves both as they were).
        fputs("\033[?2004l\033[?1006l\033[?1000l", stdout);
        fflush(stdout);
    }
    struct sigaction *previous = fitiq_previous_action(sig);
    if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
        previous->sa_sigaction(sig, info, context);
        return;
    }
    if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(sig);
        return;
    }
    // The signal stays blocked until this handler returns; then the default action ends the process.
    signal(sig, SIG_DFL);
    raise(sig);
}

static void fitiq_restore_at_exit(void) {
    if (fitiq_is_curses_active()) {
        fitiq_set_curses_active(0);
        endwin();
        // Bracketed paste and mouse reports off (endwin leaves both as they were).
        fputs("\033[?2004l\033[?1006l\033[?1000l", stdout);
        fflush(stdout);
    }
}

// The wake pipe: the key loop sleeps in poll() on the terminal's input and on the pipe's read end;
// a task with a result, and the handlers below, write a byte to its write end (write() is
// async-signal-safe), so a signal taken by any thread wakes the loop, even one that arrives just
// before poll() starts. The write end the handlers use lives in a function-local static: set it in
// the Swift file that installs the handlers (NcursesScreen.swift), see above.
static inline volatile sig_atomic_t *fitiq_wake_fd(void) {
    static volatile sig_atomic_t fd = -1;
    return &fd;
}
static inline void fitiq_set_wake_fd(int fd) { *fitiq_wake_fd() = fd; }
static inline void fitiq_wake(int fd) {
    if (fd < 0) return;
    int saved = errno;
    char byte = 1;
    // Non-blocking: a full pipe already wakes the loop.
    ssize_t written = write(fd, &byte, 1);
    (void)written;
    errno = saved;
}
static inline void fitiq_wake_from_signal(void) { fitiq_wake(*fitiq_wake_fd()); }

// A pipe whose ends neither block nor leak into child processes: fds[0] to read, fds[1] to write.
static inline int fitiq_open_wake_pipe(int fds[2]) {
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        int status = fcntl(fds[i], F_GETFL);
        int descriptor = fcntl(fds[i], F_GETFD);
        if (status < 0 || descriptor < 0 || fcntl(fds[i], F_SETFL, status | O_NONBLOCK) != 0
            || fcntl(fds[i], F_SETFD, descriptor | FD_CLOEXEC) != 0) {
            close(fds[0]);
            close(fds[1]);
            return -1;
        }
    }
    return 0;
}

// Empties the wake pipe's read end.
static inline void fitiq_drain_wake_pipe(int fd) {
    char bytes[64];
    while (read(fd, bytes, sizeof bytes) > 0) {
    }
}

// Sleeps until `input` can be read, `wake` was written or `milliseconds` pass (-1: no limit).
// Returns 1 when woken (input, a wake byte, or a signal that interrupted the wait), 0 on timeout.
// 0: the time ran out; 1: input, a wake or a signal; 2: the terminal hung up (its other end closed:
// an SSH connection dropped with no SIGHUP, as under nohup), whatever is left to read comes first.
static inline int fitiq_wait_for_input(int input, int wake, int milliseconds) {
    struct pollfd fds[2] = {{input, POLLIN, 0}, {wake, POLLIN, 0}};
    int ready = poll(fds, wake >= 0 ? 2 : 1, milliseconds);
    if (ready < 0) return errno == EINTR ? 1 : 0;
    if (ready > 0 && wake >= 0 && (fds[1].revents & POLLIN)) fitiq_drain_wake_pipe(wake);
    if (ready > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))) return 2;
    return ready > 0;
}

// SIGWINCH: ncurses' own handler (installed by newterm) notes the new size for its next wgetch; this
// one, installed after newterm, calls it and then wakes the key loop.
static inline struct sigaction *fitiq_previous_resize_action(void) {
    static struct sigaction previous;
    return &previous;
}
static void fitiq_note_resize(int sig) {
    struct sigaction *previous = fitiq_previous_resize_action();
    if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) previous->sa_handler(sig);
    fitiq_wake_from_signal();
}
static inline void fitiq_install_resize_handler(void) {
#ifdef SIGWINCH
    struct sigaction current;
    if (sigaction(SIGWINCH, NULL, &current) != 0) return;
    if (current.sa_handler == fitiq_note_resize) return;
    // A handler with SA_SIGINFO is not ncurses'; it is left alone (resizes then wake the loop late).
    if (current.sa_flags & SA_SIGINFO) return;
    *fitiq_previous_resize_action() = current;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = fitiq_note_resize;
    action.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &action, NULL);
#endif
}

// SIGCONT: the program was stopped and continued (by Ctrl-Z handled elsewhere, or by `kill -STOP`
// and `kill -CONT`); whatever was on the terminal meanwhile may have replaced the screen. The handler
// sets a flag and wakes the key loop, which repaints.
static inline volatile sig_atomic_t *fitiq_continued_flag(void) {
    static volatile sig_atomic_t continued = 0;
    return &continued;
}
static void fitiq_note_continue(int sig) {
    (void)sig;
    *fitiq_continued_flag() = 1;
    fitiq_wake_from_signal();
}
static inline void fitiq_install_continue_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = fitiq_note_continue;
    action.sa_flags = SA_RESTART;
    sigaction(SIGCONT, &action, NULL);
}
static inline int fitiq_take_continued(void) {
    int continued = *fitiq_continued_flag();
    *fitiq_continued_flag() = 0;
    return continued;
}

// SIGTSTP from outside (`kill -TSTP`; Ctrl-Z itself arrives as a byte in raw mode): the handler sets
// a flag and wakes the key loop, which suspends as for Ctrl-Z. Installed before newterm, so that ncurses
// leaves SIGTSTP alone: its own handler runs on whichever thread takes the signal, and it sets
// SIGTSTP to SIG_IGN around every screen update, which, interleaved with a stop, could leave Ctrl-Z
// ignored for good.
static inline volatile sig_atomic_t *fitiq_stop_requested_flag(void) {
    static volatile sig_atomic_t requested = 0;
    return &requested;
}
static void fitiq_note_stop_request(int sig) {
    (void)sig;
    *fitiq_stop_requested_flag() = 1;
    fitiq_wake_from_signal();
}
static inline void fitiq_install_stop_handler(void) {
    // Started with SIGTSTP ignored (no job control to continue us): it stays ignored.
    struct sigaction current;
    if (sigaction(SIGTSTP, NULL, &current) == 0 && current.sa_handler == SIG_IGN) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = fitiq_note_stop_request;
    action.sa_flags = SA_RESTART;
    sigaction(SIGTSTP, &action, NULL);
}
static inline int fitiq_take_stop_request(void) {
    int requested = *fitiq_stop_requested_flag();
    *fitiq_stop_requested_flag() = 0;
    return requested;
}

// Stops the process as the shell's Ctrl-Z would (the default SIGTSTP action, not ncurses' handler:
// the caller has given the terminal back already). Returns once the process is continued.
static inline void fitiq_stop_process(void) {
    struct sigaction previous, stop;
    // SIGTSTP ignored from the start: nothing would continue a stopped process, so it is not stopped.
    if (sigaction(SIGTSTP, NULL, &previous) == 0 && previous.sa_handler == SIG_IGN) return;
    memset(&stop, 0, sizeof stop);
    sigemptyset(&stop.sa_mask);
    stop.sa_handler = SIG_DFL;
    sigaction(SIGTSTP, &stop, &previous);
    // To the process group, as the shell's Ctrl-Z: raise() would aim at this thread only, and the
    // terminal's thread may block signals.
    kill(0, SIGTSTP);
    // The signal is taken by whichever thread does not block it, maybe after kill() returns: the
    // previous handler goes back only once it has been taken (the process stopped and was continued,
    // or the kernel discarded it, as in an orphaned process group). Put back earlier, it would catch
    // the signal instead, and Ctrl-Z would do nothing. (Bounded: should every thread block it, the
    // editor goes on after 2 s rather than hang.)
    for (int waited = 0; waited < 2000; waited++) {
        sigset_t pending;
        sigpending(&pending);
        if (!sigismember(&pending, SIGTSTP)) break;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    sigaction(SIGTSTP, &previous, NULL);
}

// Bracketed paste on or off (xterm's mode 2004): written straight to the terminal.
// The mouse: clicks of the first button and the wheel, reported at once (no wait to tell a click from
// a double click). ncurses picks the protocol from terminfo: SGR 1006 where `kmous` is `\E[<`
// (xterm-256color), which reports any column. Off with a mask of 0, which endwin() does not do: the
// shell would receive the reports.
static inline void fitiq_mouse_on(int on) {
    mousemask(on ? (BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0, NULL);
    mouseinterval(0);
}
// The report behind a KEY_MOUSE: 1 a click, 2 the wheel up, 3 the wheel down, 0 anything else (a
// release); the cell in x and y.
static inline int fitiq_take_mouse(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_PRESSED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 2;
    if (event.bstate & BUTTON5_PRESSED) return 3;
    return 0;
}

static inline void fitiq_set_bracketed_paste(int on) {
    fputs(on ? "\033[?2004h" : "\033[?2004l", stdout);
    fflush(stdout);
}

// Installs the handlers once (before newterm, so ncurses keeps ours instead of its own, which
// exit(1)s). A signal that was ignored (e.g. SIGHUP under nohup) stays ignored.
static inline void fitiq_install_restore_handlers(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    const int signals[] = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        int sig = signals[i];
        struct sigaction previous;
        if (sigaction(sig, NULL, &previous) != 0) continue;
        if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN) continue;
        *fitiq_previous_action(sig) = previous;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        sigemptyset(&action.sa_mask);
        action.sa_sigaction = fitiq_restore_on_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigaction(sig, &action, NULL);
    }
    atexit(fitiq_restore_at_exit);
}

#endif
