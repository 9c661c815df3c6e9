#include "api/c_strings.h"

#include <cstdlib>
#include <cstring>

namespace dxspv::api {

char* copy_c_string(std::string_view s)
{
    char* p = static_cast<char*>(std::malloc(s.size() + 1));
    if (!p)
        return nullptr;
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return p;
}

bool store_messages(const Diagnostics& diags, char** out)
{
    if (!out)
        return true;
    *out = nullptr;
    if (diags.messages().empty())
        return true;
    *out = copy_c_string(diags.to_string());
    return *out != nullptr;
}

} // namespace dxspv::api
