/*
 * dmlvk: DirectML training operators on Vulkan.
 *
 * Status codes and error messages shared by every public header.
 */
#ifndef DMLVK_COMMON_H
#define DMLVK_COMMON_H

#include "dmlvk/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the public functions: the library exports nothing else. */
#if defined(_WIN32)
#define DMLVK_API
#elif defined(__GNUC__)
#define DMLVK_API __attribute__((visibility("default")))
#else
#define DMLVK_API
#endif

/* DirectML's BOOL: 0 is false, anything else true. */
typedef int dmlvk_bool;

/* Every public function returns one of these. */
typedef enum dmlvk_status {
    DMLVK_OK = 0,
    /* A descriptor, tensor, binding or parameter breaks a rule; the message names it. */
    DMLVK_ERROR_INVALID_ARGUMENT = 1,
    /* Valid, but this device cannot run it (float16 without 16-bit storage, ...). */
    DMLVK_ERROR_UNSUPPORTED = 2,
    /* Host or device memory could not be allocated. */
    DMLVK_ERROR_OUT_OF_MEMORY = 3,
    /* A Vulkan call failed (device lost, no Vulkan driver, ...). */
    DMLVK_ERROR_DEVICE = 4,
    /* A file could not be read or written. */
    DMLVK_ERROR_IO = 5,
} dmlvk_status;

/* A short constant name for a status ("invalid-argument", "unsupported", ...). */
DMLVK_API const char *dmlvk_status_name(dmlvk_status status);

/*
 * The message of the most recent failing dmlvk call made by the calling thread, or "" when none
 * failed yet. Like errno, this is per thread, so concurrent calls never see each other's errors.
 * The pointer stays valid until the thread's next dmlvk call.
 */
DMLVK_API const char *dmlvk_last_error(void);

/* The library version as "MAJOR.MINOR.PATCH". */
DMLVK_API const char *dmlvk_version(void);

#ifdef __cplusplus
}
#endif

#endif
