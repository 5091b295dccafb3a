/* libFuzzer target: the TrueType structure check (render/fontcheck.h),
 * and, for every input it accepts, libharu itself: the font is loaded
 * from a memfd, a few widths measured, text drawn and the document saved
 * (which embeds the font: libharu rewrites glyf, loca and name). A crash
 * or sanitizer report in the second half is a font the check should have
 * refused. Input starting with "ttcf" is read as a collection (face 0). */
#define _GNU_SOURCE /* memfd_create */
#include <hpdf.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/pdf/fontcheck.h"
#include "util/strbuf.h"

static jmp_buf jb;

static void on_error(HPDF_STATUS no, HPDF_STATUS detail, void *data)
{
	(void)no;
	(void)detail;
	(void)data;
	longjmp(jb, 1);
}

/* The accepted font through libharu, as render/pdf_text.c loads it. */
static void through_libharu(const uint8_t *data, size_t size, int face)
{
	static const HPDF_UINT32 cps[] = {0x20, 0x41,   0x42,  0x48,
	                                  0x78, 0x4E2D, 0xFFFD};
	char path[64];
	volatile HPDF_Doc pdf = NULL;
	int fd = memfd_create("font", MFD_CLOEXEC);
	size_t i;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		goto done;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!setjmp(jb)) {
		const char *name;
		HPDF_Font font;
		HPDF_Page page;
		pdf = HPDF_New(on_error, NULL);
		HPDF_UseUTFEncodings(pdf);
		HPDF_SetCurrentEncoder(pdf, "UTF-8");
		name = face >= 0
		           ? HPDF_LoadTTFontFromFile2(pdf, path, 0, HPDF_TRUE)
		           : HPDF_LoadTTFontFromFile(pdf, path, HPDF_TRUE);
		font = HPDF_GetFont(pdf, name, "UTF-8");
		for (i = 0; i < sizeof(cps) / sizeof(cps[0]); i++)
			HPDF_Font_GetUnicodeWidth(font, cps[i]);
		page = HPDF_AddPage(pdf);
		HPDF_Page_SetFontAndSize(page, font, 10);
		HPDF_Page_BeginText(page);
		HPDF_Page_TextOut(page, 10, 10, "AB xH \xE4\xB8\xAD");
		HPDF_Page_EndText(page);
		HPDF_SaveToStream(pdf);
	}
	if (pdf)
		HPDF_Free(pdf);
done:
	if (fd >= 0)
		close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf why = STRBUF_INIT;
	int face = size >= 4 && !memcmp(data, "ttcf", 4) ? 0 : -1;

	if (fontcheck_mem(data, size, face, &why) == 0)
		through_libharu(data, size, face);
	strbuf_release(&why);
	return 0;
}
