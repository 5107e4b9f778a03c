import unittest
from unittest import TestCase, skip, skipIf, skipUnless, expectedFailure, mock


class ShapeTest(unittest.TestCase):
    def setUp(self):
        self.value = 3

    def test_value(self):
        self.assertEqual(self.value, 3)

    @unittest.skip("needs a GPU")
    def test_gpu(self):
        raise RuntimeError("never")

    @skipIf(True, "always")
    def test_skipped(self):
        pass

    @skipUnless(True, "never skipped")
    def test_kept(self):
        pass

    @expectedFailure
    def test_known_bad(self):
        self.fail("known")


@skip("class level")
class Skipped(TestCase):
    pass


print(issubclass(ShapeTest, TestCase), ShapeTest.test_gpu.__unittest_skip__, ShapeTest.test_gpu.__unittest_skip_why__)
print(ShapeTest.test_skipped.__unittest_skip__, hasattr(ShapeTest.test_kept, "__unittest_skip__"))
print(ShapeTest.test_known_bad.__unittest_expecting_failure__, Skipped.__unittest_skip__)
case = ShapeTest("test_value")
case.setUp()
case.test_value()
case.assertTrue(1)
case.assertIn(2, [1, 2])
case.assertIsNone(None)
case.assertAlmostEqual(1.0, 1.00000001)
case.assertIsInstance(case, TestCase)
with case.assertRaises(KeyError):
    {}["missing"]
try:
    case.assertEqual(1, 2)
except AssertionError as e:
    print("AssertionError:", e)
try:
    case.assertEqual(1, 2, "sizes differ")
except AssertionError as e:
    print("AssertionError:", e)
try:
    with case.assertRaises(ValueError):
        pass
except AssertionError as e:
    print("AssertionError:", e)
try:
    case.skipTest("later")
except unittest.SkipTest as e:
    print("SkipTest:", e)
print(type(mock.MagicMock()).__name__, unittest.mock.sentinel.x)
print(unittest.defaultTestLoader.getTestCaseNames(ShapeTest))
suite = unittest.TestSuite([ShapeTest("test_value")])
suite.addTest(ShapeTest("test_kept"))
print(suite.countTestCases(), case.id().split(".")[-1], case.failureException.__name__)
