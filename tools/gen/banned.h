/* banned.h: turns unsafe libc calls into compile errors; include it last. */
#ifndef GEN_BANNED_H
#define GEN_BANNED_H

/* Same list as the project's own banned.h, kept separate because the
 * generator must not depend on sdperf's core (it is the ground truth). */
#define GEN_BANNED(func) sorry_##func##_is_a_banned_function

#undef sprintf
#define sprintf(...) GEN_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) GEN_BANNED(vsprintf)
#undef strcpy
#define strcpy(a, b) GEN_BANNED(strcpy)
#undef strcat
#define strcat(a, b) GEN_BANNED(strcat)
#undef strtok
#define strtok(a, b) GEN_BANNED(strtok)
#undef atoi
#define atoi(a) GEN_BANNED(atoi)
#undef gmtime
#define gmtime(a) GEN_BANNED(gmtime)
#undef localtime
#define localtime(a) GEN_BANNED(localtime)

#endif
