VALUE = 42
spec_parent = __spec__.parent
spec_name = __spec__.name
spec_is_package = __spec__.submodule_search_locations is not None
