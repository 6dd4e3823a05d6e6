/*
 * dmlvk: DirectML's training operators on any Vulkan device. Include this header for the whole API.
 */
#ifndef DMLVK_H
#define DMLVK_H

#include "common.h"
#include "tensor.h"
#include "operators.h"
#include "device.h"
#include "buffer.h"
#include "operator.h"
#include "conventions.h"

#endif
