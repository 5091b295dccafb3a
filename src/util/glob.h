/* Case-insensitive glob matching ('*' any run, '?' one byte) in time linear
 * in the text: the rules' patterns are matched against every kernel type
 * and marker name of a profile, and both the patterns (a user's rules
 * file) and the names (the profile) may be hostile. */
#ifndef SDPERF_GLOB_H
#define SDPERF_GLOB_H

#include <stddef.h>

/* Longest pattern glob_match accepts, in bytes; the rules loader rejects
 * longer ones. */
#define GLOB_MAX_PATTERN 1024

/* Whether s matches pattern, ASCII letters compared without case. A
 * pattern longer than GLOB_MAX_PATTERN bytes matches nothing. Cost:
 * O(|pattern| + |s|) for the patterns rules hold, and never more than
 * O(|pattern| + |s| * |pattern| / 64): the usual two-pointer match is
 * tried with a step budget, and a bit-parallel automaton (one bit per
 * pattern position, no backtracking) finishes when the budget runs out. */
int glob_match(const char *pattern, const char *s);

#endif
