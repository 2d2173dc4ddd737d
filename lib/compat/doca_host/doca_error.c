/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/* DOCA error names and descriptions (doca_error.h). */

#include <errno.h>
#include <stddef.h>

#include <doca_error.h>

static const struct {
	const char *name;
	const char *descr;
} errs[] = {
	[DOCA_SUCCESS] = { "DOCA_SUCCESS", "Success" },
	[DOCA_ERROR_UNKNOWN] = { "DOCA_ERROR_UNKNOWN", "Unknown error" },
	[DOCA_ERROR_NOT_PERMITTED] = { "DOCA_ERROR_NOT_PERMITTED", "Operation not permitted" },
	[DOCA_ERROR_IN_USE] = { "DOCA_ERROR_IN_USE", "Resource already in use" },
	[DOCA_ERROR_NOT_SUPPORTED] = { "DOCA_ERROR_NOT_SUPPORTED", "Operation not supported" },
	[DOCA_ERROR_AGAIN] = { "DOCA_ERROR_AGAIN", "Resource temporarily unavailable, try again" },
	[DOCA_ERROR_INVALID_VALUE] = { "DOCA_ERROR_INVALID_VALUE", "Invalid input" },
	[DOCA_ERROR_NO_MEMORY] = { "DOCA_ERROR_NO_MEMORY", "Memory allocation failure" },
	[DOCA_ERROR_INITIALIZATION] = { "DOCA_ERROR_INITIALIZATION",
			"Resource initialization failure" },
	[DOCA_ERROR_TIME_OUT] = { "DOCA_ERROR_TIME_OUT", "Timer expired waiting for resource" },
	[DOCA_ERROR_SHUTDOWN] = { "DOCA_ERROR_SHUTDOWN", "Shut down in process or completed" },
	[DOCA_ERROR_CONNECTION_RESET] = { "DOCA_ERROR_CONNECTION_RESET",
			"Connection reset by peer" },
	[DOCA_ERROR_CONNECTION_ABORTED] = { "DOCA_ERROR_CONNECTION_ABORTED", "Connection aborted" },
	[DOCA_ERROR_CONNECTION_INPROGRESS] = { "DOCA_ERROR_CONNECTION_INPROGRESS",
			"Connection in progress" },
	[DOCA_ERROR_NOT_CONNECTED] = { "DOCA_ERROR_NOT_CONNECTED", "Not connected" },
	[DOCA_ERROR_NO_LOCK] = { "DOCA_ERROR_NO_LOCK", "Unable to acquire required lock" },
	[DOCA_ERROR_NOT_FOUND] = { "DOCA_ERROR_NOT_FOUND", "Resource not found" },
	[DOCA_ERROR_IO_FAILED] = { "DOCA_ERROR_IO_FAILED", "Input/output operation failed" },
	[DOCA_ERROR_BAD_STATE] = { "DOCA_ERROR_BAD_STATE", "Bad state" },
	[DOCA_ERROR_UNSUPPORTED_VERSION] = { "DOCA_ERROR_UNSUPPORTED_VERSION",
			"Unsupported version" },
	[DOCA_ERROR_OPERATING_SYSTEM] = { "DOCA_ERROR_OPERATING_SYSTEM",
			"Operating system call failure" },
	[DOCA_ERROR_DRIVER] = { "DOCA_ERROR_DRIVER", "DOCA driver call failure" },
	[DOCA_ERROR_UNEXPECTED] = { "DOCA_ERROR_UNEXPECTED", "Unexpected result" },
	[DOCA_ERROR_ALREADY_EXIST] = { "DOCA_ERROR_ALREADY_EXIST", "Resource already exists" },
	[DOCA_ERROR_FULL] = { "DOCA_ERROR_FULL", "No more space in resource" },
	[DOCA_ERROR_EMPTY] = { "DOCA_ERROR_EMPTY", "No entry is available in resource" },
	[DOCA_ERROR_IN_PROGRESS] = { "DOCA_ERROR_IN_PROGRESS", "Operation is in progress" },
	[DOCA_ERROR_TOO_BIG] = { "DOCA_ERROR_TOO_BIG",
			"Requested operation too big to be contained" },
	[DOCA_ERROR_AUTHENTICATION] = { "DOCA_ERROR_AUTHENTICATION", "Authentication failure" },
	[DOCA_ERROR_BAD_CONFIG] = { "DOCA_ERROR_BAD_CONFIG", "Configuration is not valid" },
	[DOCA_ERROR_SKIPPED] = { "DOCA_ERROR_SKIPPED",
			"Result is valid, but some entries were skipped" },
	[DOCA_ERROR_DEVICE_FATAL_ERROR] = { "DOCA_ERROR_DEVICE_FATAL_ERROR",
			"Device experienced a fatal error" },
};

const char *
doca_error_get_name(doca_error_t error)
{
	if ((unsigned int)error >= sizeof(errs) / sizeof(errs[0]) || errs[error].name == NULL)
		return "DOCA_ERROR_UNKNOWN_CODE";
	return errs[error].name;
}

const char *
doca_error_get_descr(doca_error_t error)
{
	if ((unsigned int)error >= sizeof(errs) / sizeof(errs[0]) || errs[error].descr == NULL)
		return "Unknown error code";
	return errs[error].descr;
}

doca_error_t
doca_error_from_errno(int err)
{
	switch (err < 0 ? -err : err) {
	case 0:
		return DOCA_SUCCESS;
	case EINVAL:
	case ERANGE:
	case EPROTO:
	case ENAMETOOLONG:
		return DOCA_ERROR_INVALID_VALUE;
	case ENOMEM:
		return DOCA_ERROR_NO_MEMORY;
	case ENOTSUP:
	case ENOSYS:
		return DOCA_ERROR_NOT_SUPPORTED;
	case EBUSY:
		return DOCA_ERROR_BAD_STATE;
	case EAGAIN:
		return DOCA_ERROR_AGAIN;
	case ETIMEDOUT:
		return DOCA_ERROR_TIME_OUT;
	case ENOENT:
	case ENODEV:
		return DOCA_ERROR_NOT_FOUND;
	case EEXIST:
		return DOCA_ERROR_ALREADY_EXIST;
	case ENOSPC:
		return DOCA_ERROR_FULL;
	case EMSGSIZE:
	case E2BIG:
		return DOCA_ERROR_TOO_BIG;
	case EPERM:
	case EACCES:
		return DOCA_ERROR_NOT_PERMITTED;
	case EIO:
		return DOCA_ERROR_IO_FAILED;
	case ECONNREFUSED:
	case ENOTCONN:
		return DOCA_ERROR_NOT_CONNECTED;
	case ECONNRESET:
		return DOCA_ERROR_CONNECTION_RESET;
	default:
		return DOCA_ERROR_UNKNOWN;
	}
}
