/* Normalizer.java's character classes (meteor.text.java_chars: ALPHA, DIGIT, ALNUM), for
 * the C normaliser (_normalize.c) and the token offsets (_tokens.c). */
#ifndef METEOR_JAVA_CHARS_H
#define METEOR_JAVA_CHARS_H

#include <Python.h>

static inline int is_alpha(Py_UCS4 c) {
    return (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x160 || c == 0x17D ||
           c == 0x161 || c == 0x17E || c == 0x178 || (c >= 0xC0 && c <= 0xD6) ||
           (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x17E) || (c >= 0x400 && c <= 0x4FF) ||
           (c >= 0x500 && c <= 0x527) || (c >= 0xA640 && c <= 0xA66E) ||
           (c >= 0xA67E && c <= 0xA697) || (c >= 0x1D00 && c <= 0x1D7F);
}

static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_alnum(Py_UCS4 c) { return is_digit(c) || is_alpha(c); }

#endif
