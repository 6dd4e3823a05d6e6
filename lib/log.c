/* The device's log: the host's callback, or silence. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void dmlvk_log(const dmlvk_device *dev, dmlvk_log_level level, const char *fmt, ...)
{
    dmlvk_log_level limit = dev->log_level == DMLVK_LOG_DEFAULT ? DMLVK_LOG_WARN : dev->log_level;
    if (!dev->log || level > limit)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    dev->log(dev->log_user, level, msg);
}

VKAPI_ATTR VkBool32 VKAPI_CALL dmlvk_validation_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    dmlvk_device *dev = user;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        /* Counted always (dmlvk_device_stats), logged as errors: a validation message is a bug, in
         * dmlvk or in how it is used. */
        atomic_fetch_add(&dev->stat_validation, 1);
        dmlvk_log(dev, DMLVK_LOG_ERROR, "validation: %s", data->pMessage);
    }
    return VK_FALSE;
}
