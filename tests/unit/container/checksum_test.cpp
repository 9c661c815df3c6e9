#include <doctest/doctest.h>

#include <string>

#include "container/checksum.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

std::string hex(const Checksum& sum)
{
    std::string s;
    for (uint8_t b : sum)
        s += strformat("%02x", b);
    return s;
}

Bytes pattern(size_t n)
{
    Bytes b(n);
    for (size_t i = 0; i < n; ++i)
        b[i] = uint8_t(i * 7 + 3);
    return b;
}

} // namespace

TEST_CASE("checksum known answers")
{
    // Expected values from an independent implementation of the DXBC hash
    // that agrees with real fxc/dxc containers. The sizes cover every
    // last-block case: hashed length % 64 = 0, 1, 12, 55, 56, 63 and longer
    // inputs with full blocks.
    struct Case {
        size_t size;
        const char* digest;
    };
    const Case cases[] = {
        {20, "140d60f6b775e2ba4e4abed401b2e9a1"},   {21, "43bb27ddf151b13cf69e5f57797fd4b5"},
        {32, "a445831d1b6fdec5cad82d5dae3f5825"},   {75, "dd57711e3e12fe7e84c2f47ede426641"},
        {76, "d571cc66536cb7b29e8780ffbe41a319"},   {83, "0ad1118e2eaa276bd451408f2991d166"},
        {84, "c1f54b1b564c9ad315e16f47b5ffcb18"},   {139, "0288e0d55cc3a5aa59bbe8f45645a7d3"},
        {140, "8f2eb9494ca2da76b26dcf1301009d40"},  {148, "92f40506414668174c7615900f9394b2"},
        {1000, "8ff1e6051a4d463b8bf2a32e60c41c56"},
    };
    for (const Case& c : cases) {
        INFO("size ", c.size);
        CHECK(hex(compute_checksum(pattern(c.size))) == c.digest);
    }
}

TEST_CASE("the first 20 bytes are not hashed")
{
    Bytes a = pattern(100);
    Bytes b = a;
    for (size_t i = 0; i < 20; ++i)
        b[i] = 0xee;
    CHECK(compute_checksum(a) == compute_checksum(b));
    b[20] ^= 1;
    CHECK(compute_checksum(a) != compute_checksum(b));
}

TEST_CASE("checksum verification")
{
    Bytes bytes = make_container({{fourcc("ABCD"), pattern(61)}, {fourcc("SHEX"), make_shex(0, 4, 0)}});
    CHECK(verify_checksum(bytes) == ChecksumStatus::ok);

    SUBCASE("a flipped byte is a mismatch")
    {
        for (size_t i : {size_t(20), size_t(31), bytes.size() - 1}) {
            Bytes b = bytes;
            b[i] ^= 0x40;
            CHECK(verify_checksum(b) == ChecksumStatus::mismatch);
        }
        Bytes b = bytes;
        b[5] ^= 1; // in the stored checksum
        CHECK(verify_checksum(b) == ChecksumStatus::mismatch);
    }
    SUBCASE("an all-zero checksum is unsigned")
    {
        Bytes b = bytes;
        std::fill(b.begin() + 4, b.begin() + 20, 0);
        CHECK(verify_checksum(b) == ChecksumStatus::zero);
    }
    SUBCASE("too short")
    {
        CHECK(verify_checksum(Bytes(19, 1)) == ChecksumStatus::mismatch);
        CHECK(compute_checksum(Bytes(3, 1)) == Checksum{});
    }
    CHECK(std::string(checksum_status_name(ChecksumStatus::ok)) == "ok");
    CHECK(std::string(checksum_status_name(ChecksumStatus::zero)) == "zero");
    CHECK(std::string(checksum_status_name(ChecksumStatus::mismatch)) == "mismatch");
}

TEST_CASE("md5 known answers (RFC 1321), around the block padding boundaries")
{
    auto md5_of = [](const std::string& s) {
        return hex(md5(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size())));
    };
    CHECK(md5_of("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5_of("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(md5_of("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
    CHECK(md5_of(std::string(55, 'a')) == "ef1772b6dff9a122358552954ad0df65");
    CHECK(md5_of(std::string(56, 'a')) == "3b0c8ac703f828b04c6c197006d17218");
    CHECK(md5_of(std::string(64, 'a')) == "014842d480b571495a4a0363793f7367");
    std::string digits;
    for (int i = 0; i < 8; ++i)
        digits += "1234567890";
    CHECK(md5_of(digits) == "57edf4a22be3c955ac49da2e2107b67a");
}
