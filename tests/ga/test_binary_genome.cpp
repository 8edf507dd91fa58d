#include "kinevo/ga/detail/binary_genome.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace kinevo::ga {
namespace {

TEST(BinaryGenome, GrayRoundTripsAndNeighboursDifferInOneBit) {
  for (std::uint32_t k = 0; k < 70000; ++k) {
    EXPECT_EQ(gray_to_binary(binary_to_gray(k)), k);
    const std::uint32_t d = binary_to_gray(k) ^ binary_to_gray(k + 1);
    EXPECT_EQ(d & (d - 1), 0u) << k;  // exactly one bit differs
  }
  EXPECT_EQ(gray_to_binary(binary_to_gray(0xffffffffu)), 0xffffffffu);
  EXPECT_EQ(binary_to_gray(gray_to_binary(0x80000001u)), 0x80000001u);
}

TEST(BinaryGenome, FieldsStraddlingWordsRoundTrip) {
  // 5 variables of 29 bits: fields cross the 64-bit word boundary.
  std::array<std::uint64_t, 3> g{};
  const std::array<std::uint32_t, 5> v{0x1fffffffu, 0u, 0x12345678u & 0x1fffffffu, 1u, 0x0abcdefu};
  for (int j = 0; j < 5; ++j) write_field(g, j * 29, 29, v[j]);
  for (int j = 0; j < 5; ++j) EXPECT_EQ(read_field(g, j * 29, 29), v[j]) << j;
  // Rewriting one field leaves its neighbours alone.
  write_field(g, 2 * 29, 29, 7u);
  EXPECT_EQ(read_field(g, 29, 29), v[1]);
  EXPECT_EQ(read_field(g, 3 * 29, 29), v[3]);
  EXPECT_EQ(read_field(g, 2 * 29, 29), 7u);
}

TEST(BinaryGenome, DecodingMatchesTheGaucsdGrid) {
  // x = lo + (hi - lo) k / (2^b - 1): ends of the range are hit exactly.
  EXPECT_EQ(decode_value(0, 16, -50.0, 50.0), -50.0);
  EXPECT_EQ(decode_value(65535, 16, -50.0, 50.0), 50.0);
  EXPECT_DOUBLE_EQ(decode_value(32768, 16, -50.0, 50.0), -50.0 + 100.0 * 32768.0 / 65535.0);
  for (std::uint32_t k : {0u, 1u, 1000u, 32767u, 65534u, 65535u}) {
    EXPECT_EQ(encode_value(decode_value(k, 16, -3.0, 7.0), 16, -3.0, 7.0), k);
  }
  EXPECT_EQ(encode_value(-1e9, 16, -3.0, 7.0), 0u);
  EXPECT_EQ(encode_value(1e9, 16, -3.0, 7.0), 65535u);
  EXPECT_EQ(decode_value(0xffffffffu, 32, 0.0, 1.0), 1.0);
}

}  // namespace
}  // namespace kinevo::ga
