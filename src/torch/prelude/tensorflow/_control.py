"""tf.cond, tf.while_loop, tf.switch_case and tf.case, as the Python control flow they stand for: on a
tensor condition the evaluator keeps both sides (ONNX If) or the loop (ONNX Loop), as TensorFlow's
graph does; on a Python value only the side taken runs, as in eager TensorFlow."""


def cond(pred, true_fn=None, false_fn=None, name=None):
    if true_fn is None or false_fn is None:
        raise TypeError("tf.cond needs both true_fn and false_fn")
    if pred:
        out = true_fn()
    else:
        out = false_fn()
    return out


def _as_tuple(loop_vars):
    return tuple(loop_vars) if isinstance(loop_vars, (list, tuple)) else (loop_vars,)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Runs body while cond holds. loop_vars is a tuple/list (the body's arguments) or one value."""
    single = not isinstance(loop_vars, (list, tuple))
    values = _as_tuple(loop_vars)
    if maximum_iterations is None:
        while cond(*values):
            values = _as_tuple(body(*values))
    else:
        i = 0
        while i < maximum_iterations and cond(*values):
            values = _as_tuple(body(*values))
            i = i + 1
    if single:
        return values[0]
    return values if isinstance(loop_vars, tuple) else list(values)


def _chain(index, branches, default):
    # Nested ifs, one comparison each: ONNX If inside If for a tensor index.
    if not branches:
        return default()
    key, fn = branches[0]
    if index == key:
        out = fn()
    else:
        out = _chain(index, branches[1:], default)
    return out


def switch_case(branch_index, branch_fns, default=None, name=None):
    """branch_fns: a list of callables or (int, callable) pairs / a dict; an index none takes runs
    `default`, or the branch with the largest key."""
    if isinstance(branch_fns, dict):
        branches = sorted(branch_fns.items())
    else:
        branches = sorted(f if isinstance(f, tuple) else (k, f) for k, f in enumerate(branch_fns))
    if default is None:
        default = branches[-1][1]
        branches = branches[:-1]
    return _chain(branch_index, branches, default)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name=None):
    """The first pair whose predicate holds; `default` when none does."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if default is None:
        default = pairs[-1][1]
        pairs = pairs[:-1]

    def chain(rest):
        if not rest:
            return default()
        pred, fn = rest[0]
        if pred:
            out = fn()
        else:
            out = chain(rest[1:])
        return out

    return chain(pairs)
