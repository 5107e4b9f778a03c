import os.path as p
for path in ["/a/b/c.txt", "a/b/", "c", "/", "", "a//b/../c", "./x/./y", "~/z", "/a/b.tar.gz", "..", "a/.hidden"]:
    print(repr(path), p.split(path), p.splitext(path), p.basename(path), p.dirname(path), p.normpath(path) if path else "", p.isabs(path))
print(p.join("a", "b", "c"), p.join("/a", "/b"), p.join("a", ""), p.commonprefix(["/usr/lib", "/usr/local"]), p.commonpath(["/usr/lib", "/usr/local"]))
print(p.relpath("/a/b/c", "/a/x"), p.splitdrive("/a/b"), p.normcase("A/B"), p.sep if hasattr(p, "sep") else "/")
