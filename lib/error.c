#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

/* Per thread like errno, so that concurrent calls on one device never report each other's errors. */
static _Thread_local char last_error[1024];

dmlvk_status dmlvk_error(dmlvk_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return status;
}

dmlvk_status dmlvk_vk_error(VkResult result, const char *what)
{
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of %s memory", what,
                           result == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "device");
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: not supported (VkResult %d)", what, (int)result);
    default:
        return dmlvk_error(DMLVK_ERROR_DEVICE, "%s failed (VkResult %d)", what, (int)result);
    }
}

const char *dmlvk_last_error(void)
{
    return last_error;
}

const char *dmlvk_status_name(dmlvk_status status)
{
    switch (status) {
    case DMLVK_OK: return "ok";
    case DMLVK_ERROR_INVALID_ARGUMENT: return "invalid-argument";
    case DMLVK_ERROR_UNSUPPORTED: return "unsupported";
    case DMLVK_ERROR_OUT_OF_MEMORY: return "out-of-memory";
    case DMLVK_ERROR_DEVICE: return "device-error";
    case DMLVK_ERROR_IO: return "io-error";
    }
    return "unknown-status";
}

const char *dmlvk_version(void)
{
    return DMLVK_VERSION_STRING;
}
