#ifndef FITIQ_CNCURSES_SHIM_H
#define FITIQ_CNCURSES_SHIM_H

// Wide-character ncurses without pkg-config (whose flags SwiftPM drops): see NCURSES.md P1.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdlib.h>
#include <ncurses.h>

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

#endif
