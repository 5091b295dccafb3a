/* The logo in the PDF: checked once before any input is read (libharu
 * decodes it in a throw-away document, in a child process), then drawn in the running header
 * of every page. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hpdf.h>

#include "format/pdf/pdf.h"
#include "format/pdf/pdf_logo.h"
#include "util/banned.h"

/* The header band's logo: at most this tall and this wide (points). */
#define LOGO_H 16.0f
#define LOGO_W 120.0f

struct check {
	unsigned long no, detail;
};

/* Records the first error; libharu's call then returns its error. */
static void on_check_error(HPDF_STATUS no, HPDF_STATUS detail, void *data)
{
	struct check *c = data;

	if (!c->no) {
		c->no = (unsigned long)no;
		c->detail = (unsigned long)detail;
	}
}

/* libharu's load of the image, in this process: 0 when it decodes. */
static int try_load(const void *data, size_t len, int png, struct check *c)
{
	HPDF_Doc pdf = HPDF_New(on_check_error, c);
	HPDF_Image img = NULL;

	if (!pdf)
		return -1;
	if (len <= 0xffffffffu)
		img = png ? HPDF_LoadPngImageFromMem(pdf, data, (HPDF_UINT)len)
		          : HPDF_LoadJpegImageFromMem(pdf, data,
		                                      (HPDF_UINT)len);
	if (img && !c->no &&
	    (HPDF_Image_GetWidth(img) == 0 || HPDF_Image_GetHeight(img) == 0))
		c->no = 1;
	HPDF_Free(pdf);
	return img && !c->no ? 0 : -1;
}

/* The load is tried in a child process: libharu 2.3.0 sets no recovery
 * point for libpng, whose default on a damaged PNG (a bad chunk, a
 * truncated stream) is to print and abort. The child's exit status is
 * the answer; the parent then loads the same bytes safely. */
int pdf_image_check(const void *data, size_t len, int png, struct strbuf *why)
{
	struct check c = {0, 0};
	int status = 0, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* libpng's complaint is not ours to print */
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 2);
		_exit(try_load(data, len, png, &c) ? 1 : 0);
	}
	if (pid < 0) {
		strbuf_addf(why, "cannot check it: fork: %s", strerror(errno));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			strbuf_addf(why, "cannot check it: waitpid: %s",
			            strerror(errno));
			return -1;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	strbuf_addf(why, "the %s image cannot be decoded (damaged or "
	                 "truncated, or of a kind libharu cannot read)",
	            png ? "PNG" : "JPEG");
	return -1;
}

float pdf_logo_load(struct pdf_doc *d, const struct pdf_opts *o,
                    HPDF_Image *img, float *h)
{
	float w, iw, ih;

	*img = NULL;
	*h = 0;
	if (!o->logo || !o->logo_len)
		return 0;
	*img = o->logo_png ? HPDF_LoadPngImageFromMem(d->pdf, o->logo,
	                                              (HPDF_UINT)o->logo_len)
	                   : HPDF_LoadJpegImageFromMem(
	                         d->pdf, o->logo, (HPDF_UINT)o->logo_len);
	iw = (float)HPDF_Image_GetWidth(*img);
	ih = (float)HPDF_Image_GetHeight(*img);
	if (iw <= 0 || ih <= 0) {
		*img = NULL;
		return 0;
	}
	/* as tall as the band allows, narrower when it is wide */
	*h = LOGO_H;
	w = iw * LOGO_H / ih;
	if (w > LOGO_W) {
		w = LOGO_W;
		*h = ih * LOGO_W / iw;
	}
	return w;
}
