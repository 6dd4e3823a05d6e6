/* Host allocations of a device, and in test builds the fault injection that can fail any of them. */
#include <stdlib.h>

#include "debug.h"
#include "internal.h"

#ifdef DMLVK_TEST_HOOKS
void dmlvk_debug_fail_nth_allocation(dmlvk_device *dev, int64_t n)
{
    atomic_store(&dev->fault_countdown, n < 0 ? -1 : n);
}

bool dmlvk_fault(dmlvk_device *dev)
{
    if (!dev || atomic_load(&dev->fault_countdown) < 0)
        return false;
    return atomic_fetch_sub(&dev->fault_countdown, 1) == 0;
}
#endif

void *dmlvk_malloc(dmlvk_device *dev, size_t size)
{
    return dmlvk_fault(dev) ? NULL : malloc(size);
}

void *dmlvk_calloc(dmlvk_device *dev, size_t n, size_t size)
{
    return dmlvk_fault(dev) ? NULL : calloc(n, size);
}

void *dmlvk_realloc(dmlvk_device *dev, void *p, size_t size)
{
    return dmlvk_fault(dev) ? NULL : realloc(p, size);
}
