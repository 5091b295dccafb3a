/* Unit tests of util/outset: report sets published all or nothing, on a
 * real folder. */
#include "unit.h"

#include <sys/stat.h>
#include <unistd.h>

#include "util/fileio.h"
#include "util/outset.h"
#include "util/strbuf.h"

struct dir {
	char path[512];
};

static int dir_setup(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	unit_tmpdir(d->path, sizeof(d->path));
	*state = d;
	return 0;
}

static int dir_teardown(void **state)
{
	struct dir *d = *state;

	unit_rmtree(d->path);
	free(d);
	return 0;
}

#define TD(f) cmocka_unit_test_setup_teardown(f, dir_setup, dir_teardown)

/* The text of dir/name, "" when it cannot be read. */
static void read_back(const char *dir, const char *name, struct strbuf *sb)
{
	struct err e = ERR_INIT;
	char path[700];

	unit_join(path, sizeof(path), dir, name);
	strbuf_reset(sb);
	fileio_read_small(path, 1 << 20, sb, &e);
}

/* Publishes name=text pairs (NULL-terminated) into dir; the result of
 * the commit, or -1 when a step before it failed. */
static int publish(const char *dir, const char *const *files, struct err *e)
{
	struct outset *s = NULL;
	int ret = -1;

	if (outset_open(&s, dir, 1, e))
		goto out;
	for (; *files; files += 2)
		if (outset_add(s, files[0], files[1], strlen(files[1]), e))
			goto out;
	ret = outset_commit(s, e);
out:
	outset_free(s);
	return ret;
}

static void outset_publishes_a_set_and_leaves_only_the_lock(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *one[] = {"a.json", "{}\n", "a.html", "<p>", NULL};
	const char *two[] = {"a.json", "new", "a.html", "", NULL};

	assert_int_equal(publish(d->path, one, &e), 0);
	read_back(d->path, "a.html", &sb);
	assert_string_equal(sb.buf, "<p>");
	/* the two files and .sdperf.lock, nothing else */
	assert_int_equal(unit_count_entries(d->path), 3);
	/* a second set replaces the first; an empty file is a file */
	assert_int_equal(publish(d->path, two, &e), 0);
	assert_int_equal(e.code, ERR_NONE);
	read_back(d->path, "a.json", &sb);
	assert_string_equal(sb.buf, "new");
	read_back(d->path, "a.html", &sb);
	assert_string_equal(sb.buf, "");
	assert_int_equal(unit_count_entries(d->path), 3);
	strbuf_release(&sb);
}

static void outset_creates_the_folder(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	const char *one[] = {"r.md", "x", NULL};
	char path[600];

	unit_join(path, sizeof(path), d->path, "new/deeper");
	assert_int_equal(publish(path, one, &e), 0);
	assert_int_equal(unit_count_entries(path), 2);
}

/* The third rename fails (a directory in the way): the first two files
 * are swapped back, the new ones and every temporary file removed. */
static void outset_rolls_back_when_a_rename_fails(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *old[] = {"1.json", "old1", "2.html", "old2", NULL};
	const char *new_[] = {"1.json", "new1",  "2.html", "new2", "3.md",
	                      "new3",   "4.pdf", "new4",   NULL};
	char path[600];

	assert_int_equal(publish(d->path, old, &e), 0);
	unit_join(path, sizeof(path), d->path, "3.md");
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(publish(d->path, new_, &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	assert_non_null(strstr(e.msg, "3.md: cannot rename into place: Is a "
	                              "directory (the previous reports are "
	                              "left as they were)"));
	read_back(d->path, "1.json", &sb);
	assert_string_equal(sb.buf, "old1");
	read_back(d->path, "2.html", &sb);
	assert_string_equal(sb.buf, "old2");
	assert_int_equal(fileio_kind(path), 1);
	/* 1.json 2.html 3.md/ and the lock: no 4.pdf, no temporary file */
	assert_int_equal(unit_count_entries(d->path), 4);
	strbuf_release(&sb);
}

/* A set abandoned before its commit leaves nothing but the lock. */
static void outset_free_removes_the_temporary_files(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	struct outset *s = NULL;

	assert_int_equal(outset_open(&s, d->path, 1, &e), 0);
	assert_int_equal(outset_add(s, "a.json", "x", 1, &e), 0);
	assert_int_equal(outset_add(s, "a.html", "y", 1, &e), 0);
	assert_int_equal(unit_count_entries(d->path), 3);
	outset_free(s);
	assert_int_equal(unit_count_entries(d->path), 1);
}

/* A symlink at a final name is replaced, never written through. */
static void outset_replaces_a_symlink_without_following_it(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *one[] = {"r.json", "report", NULL};
	char victim[600], link[600];
	struct stat st;

	unit_join(victim, sizeof(victim), d->path, "victim");
	unit_write(victim, "precious", 8);
	unit_join(link, sizeof(link), d->path, "r.json");
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(publish(d->path, one, &e), 0);
	read_back(d->path, "victim", &sb);
	assert_string_equal(sb.buf, "precious");
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	strbuf_release(&sb);
}

static void outset_refuses_a_symlink_as_lock(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	const char *one[] = {"r.json", "x", NULL};
	char victim[600], link[600];

	unit_join(victim, sizeof(victim), d->path, "victim");
	unit_write(victim, "precious", 8);
	unit_join(link, sizeof(link), d->path, ".sdperf.lock");
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(publish(d->path, one, &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	assert_non_null(strstr(e.msg, "it is a symbolic link"));
	assert_int_equal(unit_count_entries(d->path), 2);
}

static void outset_into_a_file_fails(void **state)
{
	struct dir *d = *state;
	struct err e = ERR_INIT;
	const char *one[] = {"r.json", "x", NULL};
	char path[600];

	unit_join(path, sizeof(path), d->path, "file");
	unit_write(path, "x", 1);
	assert_int_equal(publish(path, one, &e), -1);
	assert_int_equal(e.code, ERR_OUTPUT);
	assert_non_null(strstr(e.msg, "file: not a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    TD(outset_publishes_a_set_and_leaves_only_the_lock),
	    TD(outset_creates_the_folder),
	    TD(outset_rolls_back_when_a_rename_fails),
	    TD(outset_free_removes_the_temporary_files),
	    TD(outset_replaces_a_symlink_without_following_it),
	    TD(outset_refuses_a_symlink_as_lock),
	    TD(outset_into_a_file_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
