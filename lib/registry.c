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
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_type_from_name: %s is NULL",
                           name ? "type" : "name");
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

#define NAME(type, name) { DMLVK_ENUM_##type, #name, DMLVK_##type##_##name }
static const struct enum_name enum_names[] = {
    NAME(INTERPOLATION_MODE, NEAREST_NEIGHBOR),
    NAME(INTERPOLATION_MODE, LINEAR),
    NAME(AXIS_DIRECTION, INCREASING),
    NAME(AXIS_DIRECTION, DECREASING),
    NAME(REDUCE_FUNCTION, ARGMAX),
    NAME(REDUCE_FUNCTION, ARGMIN),
    NAME(REDUCE_FUNCTION, AVERAGE),
    NAME(REDUCE_FUNCTION, L1),
    NAME(REDUCE_FUNCTION, L2),
    NAME(REDUCE_FUNCTION, LOG_SUM),
    NAME(REDUCE_FUNCTION, LOG_SUM_EXP),
    NAME(REDUCE_FUNCTION, MAX),
    NAME(REDUCE_FUNCTION, MIN),
    NAME(REDUCE_FUNCTION, MULTIPLY),
    NAME(REDUCE_FUNCTION, SUM),
    NAME(REDUCE_FUNCTION, SUM_SQUARE),
    NAME(TENSOR_DATA_TYPE, UNKNOWN),
    NAME(TENSOR_DATA_TYPE, FLOAT32),
    NAME(TENSOR_DATA_TYPE, FLOAT16),
    NAME(TENSOR_DATA_TYPE, UINT32),
    NAME(TENSOR_DATA_TYPE, UINT16),
    NAME(TENSOR_DATA_TYPE, UINT8),
    NAME(TENSOR_DATA_TYPE, INT32),
    NAME(TENSOR_DATA_TYPE, INT16),
    NAME(TENSOR_DATA_TYPE, INT8),
    NAME(TENSOR_DATA_TYPE, FLOAT64),
    NAME(TENSOR_DATA_TYPE, UINT64),
    NAME(TENSOR_DATA_TYPE, INT64),
    NAME(TENSOR_DATA_TYPE, UINT4),
    NAME(TENSOR_DATA_TYPE, INT4),
    NAME(TENSOR_DATA_TYPE, BFLOAT16),
};
#undef NAME

/* DirectML's prefix of each enumeration, by dmlvk_enum_type. */
static const char *const enum_prefixes[] = {
    [DMLVK_ENUM_INTERPOLATION_MODE] = "DML_INTERPOLATION_MODE_",
    [DMLVK_ENUM_AXIS_DIRECTION] = "DML_AXIS_DIRECTION_",
    [DMLVK_ENUM_REDUCE_FUNCTION] = "DML_REDUCE_FUNCTION_",
    [DMLVK_ENUM_TENSOR_DATA_TYPE] = "DML_TENSOR_DATA_TYPE_",
};

dmlvk_status dmlvk_enum_from_name(dmlvk_enum_type type, const char *name, uint32_t *value)
{
    if (!name)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enum_from_name: name is NULL");
    if (!value)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enum_from_name: value is NULL");
    const char *bare = name;
    if ((size_t)type < DMLVK_ARRAY_SIZE(enum_prefixes) && enum_prefixes[type]) {
        size_t n = strlen(enum_prefixes[type]);
        if (!strncmp(name, enum_prefixes[type], n))
            bare = name + n;
    }
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(enum_names); i++)
        if (enum_names[i].type == type && !strcmp(enum_names[i].name, bare)) {
            *value = enum_names[i].value;
            return DMLVK_OK;
        }
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "\"%s\" is not a valid name here", name);
}

const char *dmlvk_enum_name(dmlvk_enum_type type, uint32_t value)
{
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(enum_names); i++)
        if (enum_names[i].type == type && enum_names[i].value == value)
            return enum_names[i].name;
    return NULL;
}

dmlvk_status dmlvk_enum_get_name(dmlvk_enum_type type, uint32_t value, const char **name)
{
    if (!name)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enum_get_name: name is NULL");
    if (!(*name = dmlvk_enum_name(type, value)))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enum_get_name: %u is not a value of enumeration %d", value,
                           (int)type);
    return DMLVK_OK;
}
