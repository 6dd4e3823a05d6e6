/*
 * libFuzzer target: arbitrary bytes through the case loader of dmlvk-run (JSON, descriptors,
 * tensors, data specs) and every loaded descriptor through its operator's validation and planning
 * (tensor checks, coordinate tables), as dmlvk_operator_create runs them, without a device.
 * Crashes found become regression cases in tests/fuzz/corpus/.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cases.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct case_list list = { 0 };
    char err[1024];
    if (cases_load_text((const char *)data, size, "fuzz.json", &list, err, sizeof(err))) {
        for (uint32_t i = 0; i < list.count; i++) {
            const struct test_case *c = &list.cases[i];
            const struct dmlvk_op_class *cls = dmlvk_find_op_class(c->op.Type);
            if (!cls)
                abort(); /* the loader only accepts implemented operators */
            /* deterministic or not, on a device of unknown size or one that holds an H100's
             * invocations at once (the plans that spread work over idle SMs) */
            for (int variant = 0; variant < 4; variant++) {
                const bool deterministic = variant & 1;
                struct dmlvk_op_context ctx = {
                    .op_name = cls->info.name,
                    .float16 = true,
                    .float32_atomic_add = true,
                    .int64_atomics = true,
                    .deterministic = deterministic,
                    .workgroup_size = 256,
                    .max_groups = { 65535, 65535, 65535 },
                    .resident_invocations = variant & 2 ? 132 * 64 * 32 : 0,
                };
                struct dmlvk_op_plan plan = { 0 };
                cls->plan(&ctx, c->desc, &plan);
                free(plan.params);
            }
        }
    }
    cases_free(&list);
    return 0;
}
