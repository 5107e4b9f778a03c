"""String constants (onnxify's stdlib subset)."""
__all__ = ["ascii_letters", "ascii_lowercase", "ascii_uppercase", "capwords", "digits", "hexdigits", "octdigits",
           "printable", "punctuation", "whitespace", "Template"]
whitespace = " \t\n\r\v\f"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or " ").join(x.capitalize() for x in s.split(sep))


class Template:
    delimiter = "$"

    def __init__(self, template):
        self.template = template

    def _sub(self, mapping, safe):
        out = []
        s = self.template
        i = 0
        while i < len(s):
            c = s[i]
            if c != "$":
                out.append(c)
                i += 1
                continue
            if s[i + 1:i + 2] == "$":
                out.append("$")
                i += 2
                continue
            braced = s[i + 1:i + 2] == "{"
            j = i + 2 if braced else i + 1
            k = j
            while k < len(s) and (s[k].isalnum() or s[k] == "_"):
                k += 1
            name = s[j:k]
            end = k + 1 if braced else k
            if not name or (braced and s[k:k + 1] != "}"):
                if safe:
                    out.append(c)
                    i += 1
                    continue
                raise ValueError("Invalid placeholder in string")
            if name in mapping:
                out.append(str(mapping[name]))
            elif safe:
                out.append(s[i:end])
            else:
                raise KeyError(name)
            i = end
        return "".join(out)

    def substitute(self, mapping={}, /, **kws):
        return self._sub({**mapping, **kws}, False)

    def safe_substitute(self, mapping={}, /, **kws):
        return self._sub({**mapping, **kws}, True)
