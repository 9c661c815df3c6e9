#include "vsir/pass.h"

#include "vsir/passes/passes.h"
#include "vsir/validator.h"

namespace dxspv::vsir {

bool validation_forced()
{
#ifdef NDEBUG
    return false;
#else
    return true;
#endif
}

bool run_pass(Program& program, Diagnostics& diags, const char* name, PassFunction pass, bool validate)
{
    const size_t errors_before = diags.error_count();
    if (!pass(program, diags)) {
        if (diags.error_count() == errors_before)
            diags.error(Code::vsir_pass_failed, Location::none(), "pass %s failed", name);
        return false;
    }
    if (!validate && !validation_forced())
        return true;
    return validate_program(program, diags, name);
}

bool run_pipeline(Program& program, Diagnostics& diags, const PipelineOptions& options)
{
    // Without the full validation, the front end's nesting is still checked:
    // input can break it (a break outside any loop), and each build must
    // report that as the same error.
    const bool validate = options.validate || validation_forced();
    if (!(validate ? validate_program(program, diags, "front end") : validate_nesting(program, diags, "front end")))
        return false;
    return run_pass(program, diags, "lower_phis", lower_phis, validate) &&
           run_pass(program, diags, "remove_nops", remove_nops, validate);
}

} // namespace dxspv::vsir
