// Work a process about to exit need not wait for: the last close of a large replaced file.
//
// Renaming a new model over an old one drops the old file's last link, and the kernel frees its
// blocks and page cache inside that call (ext4: about 60 ms per 100 MB, more than writing the new
// file). A process that exits right after writing (the command line, an export child of the kept
// modules) holds the old file open across the rename and, as its last act, hands that reference to
// a detached process that shares its memory (clone(CLONE_VM), no page tables copied), which closes
// it and exits: the freeing, and the unmapping of this process's memory, which waits for the last
// user of the address space, happen after the exit status is delivered. This is what linkers such
// as mold do for their output files. A process that is not about to exit (the Python API exporting
// in the caller's process) closes the old file where it is let go, as before.
#pragma once

namespace onnxify {

// Called once by an entry point that exits soon after its work (before anything is written).
void release_at_exit_enable();
// Takes ownership of `fd` (a reference to a file this process no longer needs): kept for
// release_at_exit() when enabled, else closed now.
void release_at_exit_or_close(int fd);
// The entry point's last step before returning its status or calling _exit: the kept references
// are closed by a detached process (or here, when one cannot be started).
void release_at_exit();
// For a process that goes on (the export server between commands): closes the kept references here.
void release_held_now();

}  // namespace onnxify
