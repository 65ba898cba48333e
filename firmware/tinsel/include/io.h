/*
 * Tinsel's console calls (its io.h), which tinsel.h includes: each writes to the calling thread's
 * console line, and a newline ends the line (firmware/tinsel/io.cc). Tinsel's semantics:
 *   putchar(c)   one byte; returns c
 *   puts(s)      the string WITHOUT a newline (unlike C's puts); returns its length
 *   puthex(x)    x as eight lower-case hex digits; returns 8
 *   printf(fmt)  %s and %x as Tinsel's; Tessera adds %d, %u, %c, %p and %%. Returns the count.
 * Defining them replaces picolibc's functions of the same names in images that include tinsel.h.
 */
#ifndef TESSERA_TINSEL_IO_H
#define TESSERA_TINSEL_IO_H

#ifdef __cplusplus
extern "C" {
#endif

int putchar(int c);
int puts(const char *s);
int puthex(unsigned x);
int printf(const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_TINSEL_IO_H */
