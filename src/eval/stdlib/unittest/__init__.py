"""unittest (onnxify's stdlib subset, written here).

Model files mention unittest at module level: test classes derived from TestCase, skip decorators,
`unittest.mock` objects standing in for modules they do not need. Defining those must work; running
tests does not belong in a conversion, so the runner side (main, TextTestRunner.run, loaders) only
collects or is an unknown value. The assertion methods are small and follow CPython's outcomes (an
AssertionError, or the value) so a helper that calls one at import time behaves as under CPython."""
import _onnxify

__all__ = ["TestResult", "TestCase", "IsolatedAsyncioTestCase", "TestSuite", "TextTestRunner", "TestLoader",
           "FunctionTestCase", "main", "defaultTestLoader", "SkipTest", "skip", "skipIf", "skipUnless",
           "expectedFailure", "TextTestResult", "installHandler", "registerResult", "removeResult",
           "removeHandler", "addModuleCleanup", "doModuleCleanups", "enterModuleContext", "getTestCaseNames",
           "makeSuite", "findTestCases"]


class SkipTest(Exception):
    """Raised by a test to skip itself."""


def _identity(obj):
    return obj


def skip(reason):
    """Marks a test (function or class) as skipped, as CPython's runner would read it."""
    def decorator(test_item):
        test_item.__unittest_skip__ = True
        test_item.__unittest_skip_why__ = reason
        return test_item
    if callable(reason) and not isinstance(reason, str):
        # @unittest.skip used without a reason
        test_item, reason = reason, ""
        return decorator(test_item)
    return decorator


def skipIf(condition, reason):
    return skip(reason) if condition else _identity


def skipUnless(condition, reason):
    return skip(reason) if not condition else _identity


def expectedFailure(test_item):
    test_item.__unittest_expecting_failure__ = True
    return test_item


class TestResult:
    def __init__(self, stream=None, descriptions=None, verbosity=None):
        self.failures, self.errors, self.skipped = [], [], []
        self.expectedFailures, self.unexpectedSuccesses = [], []
        self.testsRun = 0
        self.shouldStop = False

    def wasSuccessful(self):
        return not self.failures and not self.errors and not self.unexpectedSuccesses


class TextTestResult(TestResult):
    pass


class TestCase:
    """A test case class. Its tests are not run during a conversion; the assertion helpers work."""
    failureException = AssertionError
    longMessage = True
    maxDiff = 80 * 8

    def __init__(self, methodName="runTest"):
        self._testMethodName = methodName
        self._cleanups = []

    def __init_subclass__(cls, *args, **kwargs):
        super().__init_subclass__(*args, **kwargs)

    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass

    def setUp(self):
        pass

    def tearDown(self):
        pass

    def id(self):
        return "%s.%s.%s" % (type(self).__module__, type(self).__qualname__, self._testMethodName)

    def addCleanup(self, function, *args, **kwargs):
        self._cleanups.append((function, args, kwargs))

    def doCleanups(self):
        while self._cleanups:
            function, args, kwargs = self._cleanups.pop()
            function(*args, **kwargs)

    def skipTest(self, reason):
        raise SkipTest(reason)

    def fail(self, msg=None):
        raise self.failureException(msg)

    def _check(self, ok, default, msg):
        if not ok:
            raise self.failureException(default if msg is None else "%s : %s" % (default, msg))

    def assertEqual(self, first, second, msg=None):
        self._check(first == second, "%r != %r" % (first, second), msg)

    def assertNotEqual(self, first, second, msg=None):
        self._check(first != second, "%r == %r" % (first, second), msg)

    def assertTrue(self, expr, msg=None):
        self._check(bool(expr), "%r is not true" % (expr,), msg)

    def assertFalse(self, expr, msg=None):
        self._check(not expr, "%r is not false" % (expr,), msg)

    def assertIs(self, first, second, msg=None):
        self._check(first is second, "%r is not %r" % (first, second), msg)

    def assertIsNot(self, first, second, msg=None):
        self._check(first is not second, "unexpectedly identical: %r" % (first,), msg)

    def assertIsNone(self, obj, msg=None):
        self._check(obj is None, "%r is not None" % (obj,), msg)

    def assertIsNotNone(self, obj, msg=None):
        self._check(obj is not None, "unexpectedly None", msg)

    def assertIn(self, member, container, msg=None):
        self._check(member in container, "%r not found in %r" % (member, container), msg)

    def assertNotIn(self, member, container, msg=None):
        self._check(member not in container, "%r unexpectedly found in %r" % (member, container), msg)

    def assertIsInstance(self, obj, cls, msg=None):
        self._check(isinstance(obj, cls), "%r is not an instance of %r" % (obj, cls), msg)

    def assertNotIsInstance(self, obj, cls, msg=None):
        self._check(not isinstance(obj, cls), "%r is an instance of %r" % (obj, cls), msg)

    def assertGreater(self, a, b, msg=None):
        self._check(a > b, "%r not greater than %r" % (a, b), msg)

    def assertGreaterEqual(self, a, b, msg=None):
        self._check(a >= b, "%r not greater than or equal to %r" % (a, b), msg)

    def assertLess(self, a, b, msg=None):
        self._check(a < b, "%r not less than %r" % (a, b), msg)

    def assertLessEqual(self, a, b, msg=None):
        self._check(a <= b, "%r not less than or equal to %r" % (a, b), msg)

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if first == second:
            return
        diff = abs(first - second)
        if delta is not None:
            self._check(diff <= delta, "%r != %r within %r delta (%r difference)" % (first, second, delta, diff), msg)
        else:
            places = 7 if places is None else places
            self._check(round(diff, places) == 0,
                        "%r != %r within %r places (%r difference)" % (first, second, places, diff), msg)

    def assertRaises(self, expected_exception, *args, **kwargs):
        context = _AssertRaisesContext(expected_exception, self)
        if not args:
            return context
        callable_obj, args = args[0], args[1:]
        with context:
            callable_obj(*args, **kwargs)

    assertEquals = failUnlessEqual = assertEqual
    assertNotEquals = failIfEqual = assertNotEqual
    assert_ = failUnless = assertTrue
    failIf = assertFalse
    assertAlmostEquals = failUnlessAlmostEqual = assertAlmostEqual


class _AssertRaisesContext:
    def __init__(self, expected, test_case):
        self.expected = expected
        self.test_case = test_case
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            name = getattr(self.expected, "__name__", str(self.expected))
            raise self.test_case.failureException("%s not raised" % name)
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc_value
        return True


class IsolatedAsyncioTestCase(TestCase):
    pass


class FunctionTestCase(TestCase):
    def __init__(self, testFunc, setUp=None, tearDown=None, description=None):
        super().__init__()
        self._testFunc = testFunc


class TestSuite:
    def __init__(self, tests=()):
        self._tests = []
        self.addTests(tests)

    def addTest(self, test):
        self._tests.append(test)

    def addTests(self, tests):
        for test in tests:
            self.addTest(test)

    def countTestCases(self):
        return len(self._tests)

    def __iter__(self):
        return iter(self._tests)


def getTestCaseNames(testCaseClass, prefix="test", sortUsing=None, testNamePatterns=None):
    return sorted(name for name in dir(testCaseClass)
                  if name.startswith(prefix) and callable(getattr(testCaseClass, name)))


class TestLoader:
    testMethodPrefix = "test"
    suiteClass = TestSuite

    def getTestCaseNames(self, testCaseClass):
        return getTestCaseNames(testCaseClass, self.testMethodPrefix)

    def loadTestsFromTestCase(self, testCaseClass):
        return self.suiteClass([testCaseClass(name) for name in self.getTestCaseNames(testCaseClass)])


defaultTestLoader = TestLoader()


def makeSuite(testCaseClass, prefix="test", sortUsing=None, suiteClass=TestSuite):
    return suiteClass([testCaseClass(name) for name in getTestCaseNames(testCaseClass, prefix)])


def _not_run(what):
    return _onnxify.poison("unittest." + what, "unittest." + what + " runs tests; onnxify does not run tests")


class TextTestRunner:
    resultclass = TextTestResult

    def __init__(self, stream=None, descriptions=True, verbosity=1, *args, **kwargs):
        self.verbosity = verbosity

    def run(self, test):
        return _not_run("TextTestRunner.run")


def main(*args, **kwargs):
    return _not_run("main")


def findTestCases(module, prefix="test", sortUsing=None, suiteClass=TestSuite):
    return _not_run("findTestCases")


_module_cleanups = []


def addModuleCleanup(function, *args, **kwargs):
    _module_cleanups.append((function, args, kwargs))


def doModuleCleanups():
    while _module_cleanups:
        function, args, kwargs = _module_cleanups.pop()
        function(*args, **kwargs)


def enterModuleContext(cm):
    result = type(cm).__enter__(cm)
    addModuleCleanup(type(cm).__exit__, cm, None, None, None)
    return result


def installHandler():
    pass


def removeHandler(method=None):
    return method if method is not None else None


def registerResult(result):
    pass


def removeResult(result):
    return False
