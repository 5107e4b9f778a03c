import warnings, logging
warnings.warn("this goes to stderr only")
warnings.warn("deprecated", DeprecationWarning, stacklevel=2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("recorded", UserWarning)
    print(len(w), w[0].category.__name__ if w else None, str(w[0].message) if w else None)
warnings.filterwarnings("ignore", category=UserWarning)
log = logging.getLogger("model")
log.setLevel(logging.INFO)
log.info("quiet %s", 1); log.warning("also quiet"); log.debug("x")
print(log.name, logging.getLogger("model") is log, logging.INFO, logging.getLevelName(logging.WARNING), log.isEnabledFor(logging.DEBUG))
logging.basicConfig(level=logging.DEBUG)
print("done")
