from unittest.mock import Mock, MagicMock, NonCallableMock, call, ANY, sentinel, DEFAULT


def short(mock):
    return repr(mock).split(" id=")[0] + ">"


m = Mock()
print(m.a is m.a, m.a is m.b, m.a.b is m.a.b, type(m.a).__name__, type(MagicMock().a).__name__)
print(short(m), short(m.a.b), short(m()), short(m().x()), short(Mock(name="net").layer), short(m.a().b))
print(m.called, m.call_count, m.call_args, m.call_args_list)
r1 = m(1, 2, key="v")
r2 = m()
print(r1 is r2, r1 is m.return_value, m.called, m.call_count)
print(m.call_args, m.call_args.args, m.call_args.kwargs, m.call_args[0], m.call_args[1])
print(m.call_args_list, m.call_args_list[0] == call(1, 2, key="v"), m.call_args == ((), {}))
print(call(1, ANY) == call(1, [3]), call(1) == call(2), call.x(1) == call.x(1), call.x(1) == call.y(1))
m.child.method(3)
m.child(4).grand(5)
print(m.mock_calls)
print(m.method_calls)
print(m.child.mock_calls, call.child.method(3) in m.mock_calls, [call.child.method(3)] in [m.mock_calls])
print(call(1).call_list(), call.a(1).b(2).call_list())

seq = Mock(side_effect=[1, ValueError("second"), 3])
print(seq())
try:
    seq()
except ValueError as e:
    print("ValueError", e)
print(seq(), seq.call_count)
fallback = Mock(return_value="r", side_effect=lambda *a: DEFAULT if a else "effect")
print(fallback(), fallback(1))
boom = Mock(side_effect=RuntimeError)
try:
    boom()
except RuntimeError as e:
    print("RuntimeError", repr(e))
boom.side_effect = None
print(type(boom()).__name__)
fixed = Mock(return_value=sentinel.result)
print(fixed(), fixed() is sentinel.result, sentinel.result is sentinel.result, repr(DEFAULT))
wrapped = Mock(wraps=lambda x: x + 1)
print(wrapped(41), wrapped.call_args)

cfg = Mock(**{"method.return_value": 3, "other.side_effect": KeyError, "attr": 5})
print(cfg.method(), cfg.attr)
try:
    cfg.other()
except KeyError:
    print("KeyError")
cfg.configure_mock(**{"deep.er.value": 9})
print(cfg.deep.er.value)
cfg.attr = 6
del cfg.method
print(cfg.attr, hasattr(cfg, "method"), hasattr(cfg, "anything"))
try:
    cfg.assert_called_twice()
except AttributeError as e:
    print("AttributeError:", e)
try:
    cfg.__custom__
except AttributeError as e:
    print("AttributeError:", e)

spec = Mock(spec=["alpha", "beta"])
print(type(spec.alpha).__name__)
try:
    spec.gamma
except AttributeError as e:
    print("AttributeError:", e)
spec.gamma = 1
print(spec.gamma)


class Layer:
    size = 3

    def forward(self, x):
        return x


s = Mock(spec=Layer)
print(isinstance(s, Layer), short(s), type(s.forward).__name__)
try:
    s.backward
except AttributeError as e:
    print("AttributeError:", e)
strict = Mock(spec_set=Layer)
try:
    strict.extra = 1
except AttributeError as e:
    print("AttributeError:", e)

m.reset_mock()
print(m.called, m.call_count, m.mock_calls, m.child.method.called, m.return_value is r1)
m.assert_not_called()
m(7)
m.assert_called_once_with(7)
m.assert_called_with(7)
m.assert_any_call(7)
try:
    m.assert_called_with(8)
except AssertionError as e:
    print("AssertionError:", e)
try:
    m.assert_not_called()
except AssertionError as e:
    print("AssertionError:", e)
m.a(1)
m.assert_has_calls([call(7), call.a(1)])
m.assert_has_calls([call.a(1), call(7)], any_order=True)
try:
    m.assert_has_calls([call.a(2)])
except AssertionError as e:
    print("AssertionError:", str(e).splitlines()[0])
try:
    NonCallableMock()()
except TypeError as e:
    print("TypeError:", e)
parent = Mock()
kid = Mock()
parent.attach_mock(kid, "kid")
kid(1)
print(parent.mock_calls, short(kid))
