// SPDX-License-Identifier: MIT
// The one memfd buffer (shared_buffer.h): mapped, and sealed so that a reader holding its
// descriptor sees pages that never go away.
#include "fuchsia_common/shared_buffer.h"

#include <gtest/gtest.h>
#include <string.h>

namespace fuchsia_common {
namespace {

TEST(SharedBuffer, IsMappedAndCanNeitherShrinkNorGrow) {
  SharedBuffer buffer;
  SharedBufferStep failed;
  ASSERT_EQ(MakeSharedBuffer("shared-buffer-test", 8192, &buffer, &failed), 0);
  EXPECT_EQ(buffer.size, 8192u);
  memset(buffer.base, 0x5a, buffer.size);  // writable, all of it
  EXPECT_NE(ftruncate(buffer.fd, 4096), 0);
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(ftruncate(buffer.fd, 16384), 0);
  EXPECT_EQ(errno, EPERM);
  unsigned char byte = 0;
  EXPECT_EQ(pread(buffer.fd, &byte, 1, 8191), 1);  // what was written, through the descriptor
  EXPECT_EQ(byte, 0x5a);
  munmap(buffer.base, buffer.size);
  close(buffer.fd);
}

TEST(SharedBuffer, AFailedStepLeavesNothingOpen) {
  SharedBuffer buffer;
  SharedBufferStep failed = SharedBufferStep::kCreate;
  // No mapping of zero bytes: the last step fails.
  EXPECT_EQ(MakeSharedBuffer("shared-buffer-test", 0, &buffer, &failed), EINVAL);
  EXPECT_EQ(failed, SharedBufferStep::kMap);
  EXPECT_EQ(buffer.fd, -1);
}

}  // namespace
}  // namespace fuchsia_common
