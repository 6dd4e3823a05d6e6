/* The compute limits tests/limits_layer reports: Vulkan's required minimums (and the Android baseline
 * profile's). Shared with the tests that check the layer took effect. */
#ifndef DMLVK_TESTS_MINIMUM_LIMITS_H
#define DMLVK_TESTS_MINIMUM_LIMITS_H

#define MINIMUM_SHARED_BYTES 16384u
#define MINIMUM_INVOCATIONS 128u
#define MINIMUM_WORKGROUP_SIZE { 128u, 128u, 64u }

#endif
