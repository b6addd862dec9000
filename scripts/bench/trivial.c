/* The baseline of `make bench-startup`: the least an ncurses program does before its first frame. */
#include <curses.h>
#include <locale.h>

int main(void) {
    setlocale(LC_ALL, "");
    initscr();
    raw();
    noecho();
    mvaddstr(0, 0, "trivial-ready");
    refresh();
    getch();
    endwin();
    return 0;
}
