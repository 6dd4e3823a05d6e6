#include <string.h>
#include <strings.h>

#include "internal.h"

/* Generated from operator_names in meson.build: extern declarations, then OP_CLASS_LIST. */
#include "op_table.h"

static const struct dmlvk_op_class *const op_classes[] = { OP_CLASS_LIST };

const struct dmlvk_op_class *dmlvk_find_op_class(dmlvk_operator_type type)
{
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(op_classes); i++)
        if (op_classes[i]->info.type == type)
            return op_classes[i];
    return NULL;
}

dmlvk_status dmlvk_operator_get_info(dmlvk_operator_type type, const dmlvk_operator_info **info)
{
    const struct dmlvk_op_class *cls = dmlvk_find_op_class(type);
    if (!info)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_get_info: info is NULL");
    if (!cls)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "operator type %d is not implemented", (int)type);
    *info = &cls->info;
    return DMLVK_OK;
}

dmlvk_status dmlvk_operator_type_from_name(const char *name, dmlvk_operator_type *type)
{
    if (!name || !type)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_type_from_name: NULL argument");
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(op_classes); i++)
        if (!strcmp(op_classes[i]->info.name, name)) {
            *type = op_classes[i]->info.type;
            return DMLVK_OK;
        }
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "unknown operator \"%s\"", name);
}

struct enum_name {
    dmlvk_enum_type type;
    const char *name;
    uint32_t value;
};

static const struct enum_name enum_names[] = {
    { DMLVK_ENUM_INTERPOLATION_MODE, "NEAREST_NEIGHBOR", DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR },
    { DMLVK_ENUM_INTERPOLATION_MODE, "LINEAR", DMLVK_INTERPOLATION_MODE_LINEAR },
    { DMLVK_ENUM_AXIS_DIRECTION, "INCREASING", DMLVK_AXIS_DIRECTION_INCREASING },
    { DMLVK_ENUM_AXIS_DIRECTION, "DECREASING", DMLVK_AXIS_DIRECTION_DECREASING },
    { DMLVK_ENUM_REDUCE_FUNCTION, "AVERAGE", DMLVK_REDUCE_FUNCTION_AVERAGE },
    { DMLVK_ENUM_REDUCE_FUNCTION, "MAX", DMLVK_REDUCE_FUNCTION_MAX },
    { DMLVK_ENUM_TENSOR_DATA_TYPE, "FLOAT32", DMLVK_TENSOR_DATA_TYPE_FLOAT32 },
    { DMLVK_ENUM_TENSOR_DATA_TYPE, "FLOAT16", DMLVK_TENSOR_DATA_TYPE_FLOAT16 },
    { DMLVK_ENUM_TENSOR_DATA_TYPE, "UINT32", DMLVK_TENSOR_DATA_TYPE_UINT32 },
};

dmlvk_status dmlvk_enum_from_name(dmlvk_enum_type type, const char *name, uint32_t *value)
{
    if (!name || !value)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enum_from_name: NULL argument");
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(enum_names); i++)
        if (enum_names[i].type == type && !strcmp(enum_names[i].name, name)) {
            *value = enum_names[i].value;
            return DMLVK_OK;
        }
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "\"%s\" is not a valid name here", name);
}
