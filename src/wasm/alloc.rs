//! The lesson build's allocator, instead of dlmalloc (3.2 KB gzipped): blocks of
//! power-of-two sizes, each size with its own free list, cut from pages the module grows.
//! At most twice the bytes asked for, and a freed block serves only its own size again:
//! fine for the lesson's small matrices. Only in a build without threads (no atomics,
//! not the GPT's), so the lists need no lock.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr::null_mut;

const PAGE: usize = 65536;
const CLASSES: usize = 32;

/// The free lists and the unused rest of the pages grown last.
struct Heap {
    /// Free blocks of size 2^k, each holding the next one's address.
    free: [*mut u8; CLASSES],
    /// [next, end): not yet handed out.
    next: usize,
    end: usize,
}

/// The size class of `layout`: 2^k ≥ its size and alignment (blocks are aligned to
/// their size); `CLASSES` and more is too large.
fn class(layout: Layout) -> usize {
    let size = layout.size().max(layout.align()).max(8);
    size.checked_next_power_of_two()
        .map_or(CLASSES, |s| s.trailing_zeros() as usize)
}

impl Heap {
    /// A block of class k; `grow(pages)` returns the first new page or None.
    ///
    /// # Safety
    /// The free lists hold only blocks of their class this heap handed out.
    unsafe fn alloc(&mut self, k: usize, mut grow: impl FnMut(usize) -> Option<usize>) -> *mut u8 {
        if k >= CLASSES {
            return null_mut();
        }
        let head = self.free[k];
        if !head.is_null() {
            self.free[k] = *(head as *mut *mut u8);
            return head;
        }
        let size = 1usize << k;
        loop {
            let start = self.next.next_multiple_of(size);
            let Some(stop) = start.checked_add(size) else {
                return null_mut();
            };
            if stop <= self.end {
                self.next = stop;
                return start as *mut u8;
            }
            let pages = (stop - self.end).div_ceil(PAGE);
            let Some(first) = grow(pages) else {
                return null_mut();
            };
            if first * PAGE != self.end {
                self.next = first * PAGE; // not contiguous with the last pages
            }
            self.end = (first + pages) * PAGE;
        }
    }

    /// # Safety
    /// `ptr` is a block of class k this heap handed out, no longer used.
    unsafe fn dealloc(&mut self, ptr: *mut u8, k: usize) {
        *(ptr as *mut *mut u8) = self.free[k];
        self.free[k] = ptr;
    }
}

struct Global(UnsafeCell<Heap>);

// Safety: a build without atomics has one thread.
unsafe impl Sync for Global {}

#[global_allocator]
static ALLOC: Global = Global(UnsafeCell::new(Heap {
    free: [null_mut(); CLASSES],
    next: 0,
    end: 0,
}));

/// `pages` more pages of wasm memory: the first new one. Never the whole 4 GiB, so that
/// the end address fits a usize.
#[cfg(target_arch = "wasm32")]
fn grow(pages: usize) -> Option<usize> {
    use core::arch::wasm32::{memory_grow, memory_size};
    if memory_size(0) + pages >= 65536 {
        return None;
    }
    Some(memory_grow(0, pages)).filter(|&old| old != usize::MAX)
}

unsafe impl GlobalAlloc for Global {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).alloc(class(layout), grow)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        (*self.0.get()).dealloc(ptr, class(layout))
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        let (old_k, new_k) = (class(layout), class(new));
        if old_k == new_k {
            return ptr; // the block has room
        }
        let heap = &mut *self.0.get();
        let out = heap.alloc(new_k, grow);
        if !out.is_null() {
            core::ptr::copy_nonoverlapping(ptr, out, layout.size().min(new_size));
            heap.dealloc(ptr, old_k);
        }
        out
    }
}
