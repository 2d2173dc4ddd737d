/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-pcc authors
 */

/*
 * Stand-in for eRPC's util/huge_alloc.h: eRPC's allocator (huge_alloc.cc)
 * reserves SysV SHM hugepages on a NUMA node; this VM has no hugepages.
 * TimingWheel and MemPool only call alloc_raw() and never free what it
 * returns (it goes with the allocator), so this one takes 64-byte aligned
 * memory from aligned_alloc() and frees all of it when destroyed.
 */

#pragma once

#include <stdlib.h>
#include <vector>

#include "common.h"
#include "util/buffer.h"

namespace erpc
{
enum class DoRegister {
	kTrue,
	kFalse
};

struct HugeAlloc {
	static constexpr const char *kAllocFailHelpStr = "aligned_alloc() failed.";

	HugeAlloc() = default;
	HugeAlloc(const HugeAlloc &) = delete;
	HugeAlloc &operator=(const HugeAlloc &) = delete;
	~HugeAlloc()
	{
		for (void *p : bufs_)
			free(p);
	}

	/* size bytes (at least), 64-byte aligned; buf_ NULL if out of memory */
	Buffer alloc_raw(size_t size, DoRegister)
	{
		size_t sz = (size + 63) & ~static_cast<size_t>(63);
		void *p = aligned_alloc(64, sz);

		if (p != nullptr) {
			bufs_.push_back(p);
			bytes_ += sz;
		}
		return Buffer(static_cast<uint8_t *>(p), SIZE_MAX, 0);
	}

	/* bytes handed out so far */
	size_t bytes() const
	{
		return bytes_;
	}

	std::vector<void *> bufs_;
	size_t bytes_ = 0;
};
} // namespace erpc
