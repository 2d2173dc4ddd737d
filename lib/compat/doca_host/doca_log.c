/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* DOCA's logging on rte_log (doca_log.h). */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include <doca_log.h>

struct doca_log_backend {
	FILE *f;
	bool sdk;
};

/* Backends a program makes (a handful at most). */
static struct doca_log_backend backends[8];
static unsigned int nb_backends;
static uint32_t user_limit = DOCA_LOG_LEVEL_INFO;

static uint32_t
rte_level(uint32_t level)
{
	if (level <= DOCA_LOG_LEVEL_DISABLE)
		return 0; /* nothing: below RTE_LOG_EMERG */
	if (level <= DOCA_LOG_LEVEL_CRIT)
		return RTE_LOG_CRIT;
	if (level <= DOCA_LOG_LEVEL_ERROR)
		return RTE_LOG_ERR;
	if (level <= DOCA_LOG_LEVEL_WARNING)
		return RTE_LOG_WARNING;
	if (level <= DOCA_LOG_LEVEL_INFO)
		return RTE_LOG_INFO;
	return RTE_LOG_DEBUG;
}

static bool
level_ok(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE && level % 10 == 0;
}

int
doca_log_source_register(const char *source_name)
{
	char name[96];
	size_t i, o = 0;
	int id;

	o = (size_t)snprintf(name, sizeof(name), "doca.");
	for (i = 0; source_name != NULL && source_name[i] != '\0' && o + 1 < sizeof(name); i++) {
		char c = source_name[i];

		if (c == ':') {
			if (source_name[i + 1] == ':')
				i++;
			c = '.';
		}
		name[o++] = (char)tolower((unsigned char)c);
	}
	name[o] = '\0';
	id = rte_log_register_type_and_pick_level(name, rte_level(user_limit));
	return id;
}

void
doca_log(enum doca_log_level level, int source, const char *file, int line, const char *func,
		const char *format, ...)
{
	char msg[1024];
	va_list ap;
	int type;

	RTE_SET_USED(file);
	RTE_SET_USED(line);
	if (!level_ok(level) || level == DOCA_LOG_LEVEL_DISABLE)
		return;
	type = source >= 0 ? source : RTE_LOGTYPE_USER1;
	va_start(ap, format);
	vsnprintf(msg, sizeof(msg), format, ap);
	va_end(ap);
	rte_log(rte_level(level), (uint32_t)type, "[%s] %s\n", func != NULL ? func : "", msg);
}

static doca_error_t
backend_new(FILE *f, bool sdk, struct doca_log_backend **out)
{
	if (nb_backends == RTE_DIM(backends))
		return DOCA_ERROR_FULL;
	backends[nb_backends] = (struct doca_log_backend){ .f = f, .sdk = sdk };
	if (out != NULL)
		*out = &backends[nb_backends];
	nb_backends++;
	return DOCA_SUCCESS;
}

doca_error_t
doca_log_backend_create_standard(void)
{
	return backend_new(stderr, false, NULL);
}

doca_error_t
doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend)
{
	if (fptr == NULL || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (fptr != stderr && rte_openlog_stream(fptr) != 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	return backend_new(fptr, false, backend);
}

doca_error_t
doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	if (fptr == NULL || backend == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (fptr != stderr && rte_openlog_stream(fptr) != 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	return backend_new(fptr, true, backend);
}

doca_error_t
doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	if (backend == NULL || backend->sdk || !level_ok(level))
		return DOCA_ERROR_INVALID_VALUE;
	return doca_log_level_set_global_lower_limit(level);
}

doca_error_t
doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level)
{
	if (backend == NULL || !backend->sdk || !level_ok(level))
		return DOCA_ERROR_INVALID_VALUE;
	return doca_log_level_set_global_sdk_limit(level);
}

doca_error_t
doca_log_level_set_global_lower_limit(uint32_t level)
{
	if (!level_ok(level))
		return DOCA_ERROR_INVALID_VALUE;
	user_limit = level;
	if (rte_log_set_level_pattern("doca.*", rte_level(level)) < 0)
		return DOCA_ERROR_UNEXPECTED;
	return DOCA_SUCCESS;
}

uint32_t
doca_log_level_get_global_lower_limit(void)
{
	return user_limit;
}

doca_error_t
doca_log_level_set_global_sdk_limit(uint32_t level)
{
	if (!level_ok(level))
		return DOCA_ERROR_INVALID_VALUE;
	if (rte_log_set_level_pattern("pcc.*", rte_level(level)) < 0)
		return DOCA_ERROR_UNEXPECTED;
	return DOCA_SUCCESS;
}
