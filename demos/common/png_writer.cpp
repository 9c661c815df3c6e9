// PNG = signature, IHDR, IDAT (a zlib stream of the rows, each prefixed by
// its filter type), IEND; a chunk is length, type, data, CRC-32 of type and
// data. See png_writer.h.
#include "png_writer.h"

#include <zlib.h>

#include <cstdio>
#include <vector>

namespace demo {

namespace {

void put32(std::vector<uint8_t>& out, uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(uint8_t(v >> shift));
}

void chunk(std::vector<uint8_t>& out, const char type[4], const std::vector<uint8_t>& data)
{
    put32(out, uint32_t(data.size()));
    size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    put32(out, uint32_t(crc32(0, out.data() + start, uInt(out.size() - start))));
}

} // namespace

bool write_png(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba)
{
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::vector<uint8_t> header;
    put32(header, width);
    put32(header, height);
    header.insert(header.end(), {8, 6, 0, 0, 0}); // 8 bits, RGBA, deflate, adaptive filters, no interlace
    chunk(png, "IHDR", header);

    std::vector<uint8_t> raw;
    raw.reserve(size_t(height) * (1 + 4 * size_t(width)));
    for (uint32_t y = 0; y < height; ++y) {
        raw.push_back(0); // filter type: none
        const uint8_t* row = rgba + size_t(y) * 4 * width;
        raw.insert(raw.end(), row, row + 4 * size_t(width));
    }
    uLongf size = compressBound(uLong(raw.size()));
    std::vector<uint8_t> idat(size);
    if (compress2(idat.data(), &size, raw.data(), uLong(raw.size()), 9) != Z_OK)
        return false;
    idat.resize(size);
    chunk(png, "IDAT", idat);
    chunk(png, "IEND", {});

    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    bool ok = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    return std::fclose(f) == 0 && ok;
}

} // namespace demo
