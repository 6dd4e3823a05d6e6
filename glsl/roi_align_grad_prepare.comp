#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: the first pass of the gather by tiles (roi_align_grad_tiles.glsl).
#include "roi_align_grad_common.glsl"

#include "roi_align_grad_tiles.glsl"

#include "roi_align_grad_lines.glsl"

// Three kinds of dispatch: dY to [region][bin][channel] through blocks of BLOCK_CHANNELS by T in
// shared memory, so that reads and writes are both contiguous (it needs no sample table: in two
// halves, beside the geometry stage and beside the lines), the lines; and for the ROI gradient
// InputTensor to [batch][pixel][channel] alike.
layout(constant_id = ROI_SPEC_PREPARE) const uint PREPARE = ROI_PREPARE_DY;
layout(constant_id = ROI_SPEC_PREPARE_PART) const uint PART = ROI_PART_WHOLE;
layout(constant_id = ROI_SPEC_TRANSPOSE_TILES) const uint TILES = 1u;
const uint T = ROI_TRANSPOSE_CHANNELS;    // pixels (or bins) per block, and channels per tile
const uint BLOCK_CHANNELS = T * TILES;    // channels per block
// A word holds a channel's bits, or two neighbouring channels' of a 16-bit type: a block is then
// half the shared memory, and its words leave as they are.
#if DMLVK_STORAGE16
const uint PER_WORD = 2u;
#else
const uint PER_WORD = 1u;
#endif
const uint WORDS = BLOCK_CHANNELS / PER_WORD;    // of a block's row (pixel)
shared uint transpose_block[WORDS][T + 1u];

// Element i of a tensor as stored: float32 bits, or a 16-bit type's bits in the low half.
uint element_bits(Tensor t, uint i)
{
#if DMLVK_STORAGE16
    return TensorWords(t).v[i >> 1] >> (16u * (i & 1u)) & 0xffffu;
#else
    return floatBitsToUint(t.v[i]);
#endif
}

// Word k of a block's row: channel c (at element i of t) and, in 16-bit types, the one after it
// (c_step elements on), 0 past `channels` or where the row is past the block's.
uint word_bits(Tensor t, uint i, uint c_step, uint c, uint channels, bool row_inside)
{
    uint w = c < channels && row_inside ? element_bits(t, i) : 0u;
#if DMLVK_STORAGE16
    if (c + 1u < channels && row_inside)
        w |= element_bits(t, i + c_step) << 16;
#endif
    return w;
}

uint transpose_groups()     // one per region and block of channels
{
    return pc.p.num_rois * ((gather_stride() + BLOCK_CHANNELS - 1u) / BLOCK_CHANNELS);
}

// Writes the block read into transpose_block ([word][row]) with the channels fastest: rows
// row0.. of `rows`, channels c0.. of `stride` per row (even in 16-bit types), row n at element
// (base + n) * stride of dst.
void write_block(UintSums dst, uint base, uint row0, uint rows, uint c0, uint stride)
{
    for (uint i = gl_LocalInvocationID.x; i < WORDS * T; i += gl_WorkGroupSize.x) {
        uint k = i % WORDS, j = i / WORDS, c = c0 + PER_WORD * k, row = row0 + j;
        if (c < stride && row < rows)
            dst.v[((base + row) * stride + c) / PER_WORD] = transpose_block[k][j];
    }
}

// Reads BLOCK_CHANNELS channels by T rows (pixels y * w + x) into transpose_block ([word][row]):
// element base + c * s.x + y * s.y + x * s.z, 0 past `channels` or `rows`. A warp's lanes take
// neighbouring rows, or neighbouring words where the channels lie closer in memory (channels-last),
// so that it reads contiguous elements either way.
void read_block(Tensor t, uint base, uvec3 s, uint w, uint rows, uint row0, uint channels, uint c0)
{
    uint lid = gl_LocalInvocationID.x;
    bool channel_lanes = s.x < (w > 1u ? s.z : s.y);
    if (gl_WorkGroupSize.x % T != 0u || gl_WorkGroupSize.x % WORDS != 0u) {
        for (uint i = lid; i < WORDS * T; i += gl_WorkGroupSize.x) {
            uint k = channel_lanes ? i % WORDS : i / T, j = channel_lanes ? i / WORDS : i % T;
            uint c = c0 + PER_WORD * k, row = row0 + j, y = row / w;
            transpose_block[k][j] = word_bits(t, base + c * s.x + y * s.y + (row - y * w) * s.z, s.x, c, channels, row < rows);
        }
        return;
    }
    // Integer division costs tens of instructions: an invocation keeps its lane's row (or word)
    // and steps the other index by a constant.
    if (!channel_lanes) {
        uint lane = lid % T, row = row0 + lane, y = row / w, at = base + y * s.y + (row - y * w) * s.z;
        for (uint k = lid / T; k < WORDS; k += gl_WorkGroupSize.x / T) {
            uint c = c0 + PER_WORD * k;
            transpose_block[k][lane] = word_bits(t, at + c * s.x, s.x, c, channels, row < rows);
        }
        return;
    }
    uint k = lid % WORDS, c = c0 + PER_WORD * k, step = gl_WorkGroupSize.x / WORDS;
    uint row = row0 + lid / WORDS, y = row / w, x = row - y * w;
    uint step_y = step / w, step_x = step - step_y * w;
    for (uint j = lid / WORDS; j < T; j += step, row += step) {
        transpose_block[k][j] = word_bits(t, base + c * s.x + y * s.y + x * s.z, s.x, c, channels, row < rows);
        x += step_x;
        y += step_y;
        if (x >= w) {
            x -= w;
            y++;
        }
    }
}

// A workgroup per block of BLOCK_CHANNELS channels by T pixels of one batch: InputTensor's copy
// with the channels fastest (input_copy), its padding channels 0.
void transpose_input(uint group)
{
    uint pixels = pc.p.in_h * pc.p.in_w, stride = input_stride();
    uint channel_blocks = (stride + BLOCK_CHANNELS - 1u) / BLOCK_CHANNELS, pixel_blocks = (pixels + T - 1u) / T;
    if (group >= pc.p.batch_count * channel_blocks * pixel_blocks)
        return;
    uint c0 = (group % channel_blocks) * BLOCK_CHANNELS, p0 = (group / channel_blocks % pixel_blocks) * T;
    uint b = group / (channel_blocks * pixel_blocks);
    read_block(pc.x, b * pc.p.in_strides[0], uvec3(pc.p.in_strides[1], pc.p.in_strides[2], pc.p.in_strides[3]), pc.p.in_w,
               pixels, p0, pc.p.channels, c0);
    barrier();
    write_block(UintSums(input_copy()), b * pixels, p0, pixels, c0, stride);
}

void main()
{
    uint group = workgroup_index();
    if (PREPARE == ROI_PREPARE_INPUT) {
        transpose_input(group);
        return;
    }
    uint bins = pc.p.out_h * pc.p.out_w, stride = gather_stride();
    if (PREPARE == ROI_PREPARE_DY) {
        uint groups = transpose_groups(), first_half = groups / 2u;
        group += PART == ROI_PART_SECOND_HALF ? first_half : 0u;
        if (group >= (PART == ROI_PART_FIRST_HALF ? first_half : groups))
            return;
        uint channel_blocks = (stride + BLOCK_CHANNELS - 1u) / BLOCK_CHANNELS;
        uint c0 = (group % channel_blocks) * BLOCK_CHANNELS, r = group / channel_blocks;
        for (uint bin0 = 0u; bin0 < bins; bin0 += T) {
            read_block(pc.dy, r * pc.p.bin_strides[0], uvec3(pc.p.bin_strides[1], pc.p.bin_strides[2], pc.p.bin_strides[3]),
                       pc.p.out_w, bins, bin0, pc.p.channels, c0);
            barrier();
            write_block(UintSums(pc.scratch), r * bins, bin0, bins, c0, stride);
            barrier();
        }
        return;
    }
    uint e = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (e < line_count())
        prepare_line(e / (pc.p.in_h + pc.p.in_w), e % (pc.p.in_h + pc.p.in_w));
}
