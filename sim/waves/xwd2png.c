/* xwd2png - turn the screen of a headless X server into a PNG.
 *
 *   xwd2png IN.xwd OUT.png
 *
 * Xvfb -fbdir DIR keeps its screen in DIR/Xvfb_screen0 as an X Window Dump (XWD,
 * version 7): a header of big-endian 32-bit fields, a colour map, then the pixels in
 * ZPixmap format. screenshot.sh copies that file once GTKWave has drawn its view, and
 * this program writes it as an 8-bit RGB PNG (zlib does the compression; CRCs from zlib
 * too). Only what Xvfb writes for a TrueColor screen is taken: 24 or 32 bits per pixel
 * with the colour masks of the header; anything else is refused, exit 1. Usage errors
 * exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

/* The XWD header fields, in file order (X11/XWDFile.h names them the same way). */
enum {
    XWD_HEADER_SIZE, XWD_FILE_VERSION, XWD_PIXMAP_FORMAT, XWD_PIXMAP_DEPTH,
    XWD_PIXMAP_WIDTH, XWD_PIXMAP_HEIGHT, XWD_XOFFSET, XWD_BYTE_ORDER, XWD_BITMAP_UNIT,
    XWD_BITMAP_BIT_ORDER, XWD_BITMAP_PAD, XWD_BITS_PER_PIXEL, XWD_BYTES_PER_LINE,
    XWD_VISUAL_CLASS, XWD_RED_MASK, XWD_GREEN_MASK, XWD_BLUE_MASK, XWD_BITS_PER_RGB,
    XWD_COLORMAP_ENTRIES, XWD_NCOLORS, XWD_FIELDS = 25
};
#define XWD_ZPIXMAP 2
#define XWD_COLOR_BYTES 12 /* one colour map entry: pixel, r, g, b, flags, pad */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* The 8-bit channel of a pixel under one of the header's masks. */
static unsigned channel(uint32_t pixel, uint32_t mask)
{
    if (!mask)
        return 0;
    unsigned shift = 0, bits = 0;
    while (!(mask >> shift & 1))
        shift++;
    while (shift + bits < 32 && mask >> (shift + bits) & 1)
        bits++;
    uint32_t v = (pixel & mask) >> shift;
    return bits >= 8 ? v >> (bits - 8) : (unsigned)(v * 255u / ((1u << bits) - 1u));
}

/* One PNG chunk: length, type, data, CRC of type and data. */
static int write_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len)
{
    unsigned char head[8], tail[4];
    put_be32(head, len);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (len)
        crc = crc32(crc, data, len);
    put_be32(tail, (uint32_t)crc);
    return fwrite(head, 1, 8, f) == 8 && (!len || fwrite(data, 1, len, f) == len) &&
           fwrite(tail, 1, 4, f) == 4;
}

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "xwd2png: %s: %s\n", path, what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: xwd2png IN.xwd OUT.png\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in)
        return fail("cannot open", argv[1]);
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    unsigned char *xwd = size > 0 ? malloc((size_t)size) : NULL;
    if (!xwd || fread(xwd, 1, (size_t)size, in) != (size_t)size) {
        fclose(in);
        free(xwd);
        return fail("cannot read", argv[1]);
    }
    fclose(in);

    uint32_t h[XWD_FIELDS];
    if (size < XWD_FIELDS * 4) {
        free(xwd);
        return fail("too short for an XWD header", argv[1]);
    }
    for (int i = 0; i < XWD_FIELDS; i++)
        h[i] = be32(xwd + 4 * i);
    uint32_t w = h[XWD_PIXMAP_WIDTH], ht = h[XWD_PIXMAP_HEIGHT], bpp = h[XWD_BITS_PER_PIXEL];
    uint32_t bpl = h[XWD_BYTES_PER_LINE];
    uint64_t data = (uint64_t)h[XWD_HEADER_SIZE] + (uint64_t)h[XWD_NCOLORS] * XWD_COLOR_BYTES;
    if (h[XWD_FILE_VERSION] != 7 || h[XWD_PIXMAP_FORMAT] != XWD_ZPIXMAP ||
        (bpp != 24 && bpp != 32) || w == 0 || ht == 0 || w > 16384 || ht > 16384 ||
        bpl < (uint64_t)w * bpp / 8 || data + (uint64_t)bpl * ht > (uint64_t)size) {
        free(xwd);
        return fail("not a TrueColor ZPixmap XWD of 24/32 bits per pixel", argv[1]);
    }

    /* The PNG scanlines: filter byte 0 (none), then R, G, B. */
    size_t row = 1 + (size_t)w * 3, raw_len = row * ht;
    unsigned char *raw = malloc(raw_len);
    uLongf z_len = compressBound((uLong)raw_len);
    unsigned char *z = malloc(z_len);
    if (!raw || !z) {
        free(xwd), free(raw), free(z);
        return fail("out of memory", argv[1]);
    }
    int msb = h[XWD_BYTE_ORDER] != 0; /* 0: LSBFirst, the byte order of the pixels */
    for (uint32_t y = 0; y < ht; y++) {
        const unsigned char *src = xwd + data + (size_t)y * bpl;
        unsigned char *dst = raw + (size_t)y * row;
        *dst++ = 0;
        for (uint32_t x = 0; x < w; x++) {
            const unsigned char *p = src + (size_t)x * (bpp / 8);
            uint32_t px = 0;
            for (uint32_t b = 0; b < bpp / 8; b++)
                px |= (uint32_t)p[msb ? b : bpp / 8 - 1 - b] << (8 * (bpp / 8 - 1 - b));
            *dst++ = (unsigned char)channel(px, h[XWD_RED_MASK]);
            *dst++ = (unsigned char)channel(px, h[XWD_GREEN_MASK]);
            *dst++ = (unsigned char)channel(px, h[XWD_BLUE_MASK]);
        }
    }
    free(xwd);
    if (compress2(z, &z_len, raw, (uLong)raw_len, 9) != Z_OK) {
        free(raw), free(z);
        return fail("zlib compression failed", argv[2]);
    }
    free(raw);

    FILE *out = fopen(argv[2], "wb");
    if (!out) {
        free(z);
        return fail("cannot create", argv[2]);
    }
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char ihdr[13];
    put_be32(ihdr, w);
    put_be32(ihdr + 4, ht);
    ihdr[8] = 8;  /* bits per channel */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering (each row says "none") */
    ihdr[12] = 0; /* no interlace */
    int ok = fwrite(sig, 1, 8, out) == 8 && write_chunk(out, "IHDR", ihdr, 13) &&
             write_chunk(out, "IDAT", z, (uint32_t)z_len) && write_chunk(out, "IEND", NULL, 0);
    free(z);
    if (fclose(out) != 0 || !ok)
        return fail("write failed", argv[2]);
    return 0;
}
