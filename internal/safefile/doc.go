// Package safefile handles the files of a tree that protoscan does not
// trust: every byte of a scanned repository, its symbolic links
// included, may have been written by whoever opened a pull request.
//
// # Writes
//
// Create and WriteFile write a new temporary file in the directory of the
// target and rename it into place when the file is closed. A rename
// replaces the directory entry itself: a symbolic link at the final
// component of the target is replaced by a regular file, never written
// through, and a target is never seen half written. Before creating
// anything, Create walks the directories of the target and refuses
// (ErrLinkOut) a symbolic link that lies inside one of the given roots
// and resolves to a place outside all of them.
//
// The roots are the trees a command reads and does not trust: for the
// protoscan command, the scanned PATHs and the working directory (the
// checkout a CI job runs in). What lies outside every root, and the path
// the command line names, are trusted: a link in a parent directory of a
// root (/tmp on macOS, say) is followed, and "-" (stdout), /dev/stdout,
// /dev/stderr, /dev/null and other existing files that are not regular
// (character devices, FIFOs) are written in place, as a plain open would.
// A link inside a root is replaced whatever it points to (a disk, say),
// except under /dev, which no tree holds: a root of / (a container's
// working directory) still lets /dev/stdout be written.
//
// # Reads
//
// ReadFile reads a spec, config or schema file of the tree: a regular file
// only (a named pipe or device is refused without being opened for a
// read that could block), at most a size limit, and, unless the command
// line named the path, only where it resolves inside the tree's root, so
// a committed link cannot make protoscan read (or quote) a file of the
// machine. Its errors name the path as given, never the file's content.
package safefile
