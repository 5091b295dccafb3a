/* struct err helpers. */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/banned.h"

int err_set(struct err *e, enum err_code code, const char *fmt, ...)
{
	va_list ap;

	if (!e || e->code != ERR_NONE)
		return -1;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void err_clear(struct err *e)
{
	e->code = ERR_NONE;
	e->msg[0] = '\0';
}
