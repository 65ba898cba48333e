// The image header model: which images may boot on which machine.
#include "tessera/models/image.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

constexpr TesseraShape kBox{3, 2, 4, 4, 4, 16};  // Tinsel's box of six boards
constexpr TesseraShape kSmall{1, 1, 2, 2, 1, 4};

std::vector<uint8_t> Header(uint32_t magic, const TesseraShape& s) {
  const uint32_t words[TESSERA_IMAGE_HEADER_WORDS] = {
      0x0200006fu,  // j +32
      magic,        s.boards_x,      s.boards_y, s.tiles_x, s.tiles_y, s.cores_per_tile,
      s.threads_per_core};
  std::vector<uint8_t> bytes;
  for (const uint32_t w : words) {
    for (int b = 0; b < 4; b++) bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
  }
  return bytes;
}

TesseraImageFit Fit(const std::vector<uint8_t>& bytes, const TesseraShape& machine,
                    TesseraShape* built_for = nullptr) {
  return tessera_image_fit(bytes.data(), bytes.size(), &machine, built_for);
}

TEST(ImageModel, AHeaderWithoutAShapeRunsAnywhere) {
  const auto bytes = Header(TESSERA_IMAGE_MAGIC, TesseraShape{0, 0, 0, 0, 0, 0});
  EXPECT_EQ(Fit(bytes, kBox), TESSERA_IMAGE_ANY_SHAPE);
  EXPECT_EQ(Fit(bytes, kSmall), TESSERA_IMAGE_ANY_SHAPE);
}

TEST(ImageModel, AnImageWithoutAHeaderRunsAnywhere) {
  EXPECT_EQ(Fit(Header(0x12345678u, kBox), kSmall), TESSERA_IMAGE_ANY_SHAPE);
  const auto bytes = Header(TESSERA_IMAGE_MAGIC, kBox);
  EXPECT_EQ(tessera_image_fit(bytes.data(), bytes.size() - 1, &kSmall, nullptr),
            TESSERA_IMAGE_ANY_SHAPE);
  EXPECT_EQ(tessera_image_fit(nullptr, 0, &kSmall, nullptr), TESSERA_IMAGE_ANY_SHAPE);
}

TEST(ImageModel, AnImageFitsOnlyTheShapeItWasBuiltFor) {
  TesseraShape built_for{};
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, kBox), kBox, &built_for), TESSERA_IMAGE_FITS);
  EXPECT_EQ(built_for.boards_x, 3u);
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, kBox), kSmall, &built_for),
            TESSERA_IMAGE_OTHER_SHAPE);
  EXPECT_EQ(built_for.threads_per_core, 16u);
  // One extent differs: the thread-id layout may be the same, the program's constants are not.
  TesseraShape wider = kBox;
  wider.boards_x = 4;
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, kBox), wider), TESSERA_IMAGE_OTHER_SHAPE);
}

TEST(ImageModel, AShapeNoMachineHasIsABadHeader) {
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, TesseraShape{3, 0, 4, 4, 4, 16}), kBox),
            TESSERA_IMAGE_BAD_HEADER);
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, TesseraShape{9, 1, 1, 1, 1, 1}), kBox),
            TESSERA_IMAGE_BAD_HEADER);
  EXPECT_EQ(Fit(Header(TESSERA_IMAGE_MAGIC, TesseraShape{1, 1, 1, 1, 1, 128}), kBox),
            TESSERA_IMAGE_BAD_HEADER);
}

TEST(ImageModel, ShapesReadAsMachineProperties) {
  char text[128];
  EXPECT_EQ(tessera_shape_format(&kBox, text, sizeof text), 78);
  EXPECT_EQ(std::string(text),
            "boards-x=3,boards-y=2,tiles-x=4,tiles-y=4,cores-per-tile=4,threads-per-core=16");
  char small[8];
  tessera_shape_format(&kBox, small, sizeof small);
  EXPECT_EQ(std::string(small), "boards-");
}

}  // namespace
