/* Shared helpers of the unit tests: cmocka includes, scratch directories and
 * small file helpers. Everything is static inline so each test executable
 * takes only what it uses. */
#ifndef SDPERF_UNIT_H
#define SDPERF_UNIT_H

/* cmocka needs these before its own header */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SDPERF_TEST_DATA
#error "SDPERF_TEST_DATA must name tests/data (see tests/unit/CMakeLists.txt)"
#endif
#ifndef SDPERF_TEST_TMP
#define SDPERF_TEST_TMP "/tmp"
#endif

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* 1 in an AddressSanitizer build (GCC defines the first, clang the
 * second), where memory use is not the program's own. */
#if defined(__SANITIZE_ADDRESS__)
#define UNIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNIT_ASAN 1
#endif
#endif
#ifndef UNIT_ASAN
#define UNIT_ASAN 0
#endif

/* A fresh empty directory under the build tree's scratch folder; the
 * caller removes it with unit_rmtree. */
static inline void unit_tmpdir(char *out, size_t n)
{
	int len;

	if (mkdir(SDPERF_TEST_TMP, 0755) && errno != EEXIST)
		fail_msg("cannot create %s: %s", SDPERF_TEST_TMP,
		         strerror(errno));
	len = snprintf(out, n, "%s/t-XXXXXX", SDPERF_TEST_TMP);
	assert_true(len > 0 && (size_t)len < n);
	assert_non_null(mkdtemp(out));
}

/* tests/data/samples: the real profiler files (PROVENANCE.md there); a
 * missing folder fails the test. */
static inline const char *unit_samples_dir(void)
{
	const char *d = SDPERF_TEST_DATA "/samples";
	struct stat st;

	if (stat(d, &st) || !S_ISDIR(st.st_mode))
		fail_msg("sample folder %s not found", d);
	return d;
}

static inline void unit_join(char *out, size_t n, const char *dir,
                             const char *name)
{
	int len = snprintf(out, n, "%s/%s", dir, name);
	assert_true(len > 0 && (size_t)len < n);
}

static inline void unit_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Number of entries in a directory, not counting . and .. */
static inline int unit_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* rm -rf for the scratch directories (no symlinks are ever made in them). */
static inline void unit_rmtree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	char sub[4096];

	if (lstat(path, &st))
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) <
		    (int)sizeof(sub))
			unit_rmtree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

#endif
