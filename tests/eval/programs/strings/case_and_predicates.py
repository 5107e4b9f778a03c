for s in ["hello world", "Hello World", "HELLO", "hello_world42", "  ", "", "123", "12.5", "ÀÉÎõü", "Straße", "İ", "ΑΒΓ δεζ", "Привет Мир"]:
    print(repr(s), s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase(), s.casefold(),
          s.isalpha(), s.isdigit(), s.isalnum(), s.isspace(), s.islower(), s.isupper(), s.istitle(),
          s.isidentifier(), s.isnumeric(), s.isdecimal(), s.isprintable())
