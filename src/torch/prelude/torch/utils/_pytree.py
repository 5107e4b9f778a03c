"""torch.utils._pytree: nested containers flattened to leaves and rebuilt, as PyTorch's (Keras' torch
backend runs every layer call through it; transformers registers its ModelOutput classes with it).

The nodes: tuple, list, dict, namedtuple, OrderedDict, defaultdict, deque and the classes registered
with register_pytree_node; everything else is a leaf. A dict's children are in insertion order, its
context the keys. A TreeSpec holds (type, context, children_specs) as PyTorch's does, with the same
num_nodes/num_leaves/num_children counts and the same errors for mismatched structures."""
import collections
import dataclasses
from collections import OrderedDict, defaultdict, deque, namedtuple

__all__ = [
    "PyTree", "Context", "FlattenFunc", "UnflattenFunc", "TreeSpec", "LeafSpec", "register_pytree_node",
    "tree_flatten", "tree_flatten_with_path", "tree_unflatten", "tree_iter", "tree_leaves", "tree_leaves_with_path",
    "tree_structure", "tree_map", "tree_map_with_path", "tree_map_", "tree_map_only", "tree_all", "tree_any",
    "treespec_pprint", "keystr", "key_get", "SequenceKey", "MappingKey", "GetAttrKey", "is_namedtuple",
    "is_namedtuple_class", "is_namedtuple_instance", "is_structseq", "is_structseq_class", "is_structseq_instance",
]

PyTree = object
Context = object
FlattenFunc = object
UnflattenFunc = object
KeyEntry = object
KeyPath = tuple


@dataclasses.dataclass(frozen=True)
class NodeDef:
    type: type
    flatten_fn: object
    unflatten_fn: object
    flatten_with_keys_fn: object = None


@dataclasses.dataclass(frozen=True)
class _SerializeNodeDef:
    typ: type
    serialized_type_name: str
    to_dumpable_context: object
    from_dumpable_context: object


SUPPORTED_NODES = {}
SUPPORTED_SERIALIZED_TYPES = {}
SERIALIZED_TYPE_TO_PYTHON_TYPE = {}


# ---- keys of a path (tree_flatten_with_path) ---------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self):
        return f"[{self.idx!r}]"

    def get(self, sequence):
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    key: object

    def __str__(self):
        return f"[{self.key!r}]"

    def get(self, mapping):
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self):
        return f".{self.name}"

    def get(self, obj):
        return getattr(obj, self.name)


def keystr(kp):
    return "".join([str(k) for k in kp])


def key_get(obj, kp):
    for k in kp:
        obj = k.get(obj)
    return obj


# ---- namedtuples and structseqs ----------------------------------------------------------------------
def is_namedtuple_class(cls):
    return isinstance(cls, type) and issubclass(cls, tuple) and isinstance(getattr(cls, "_fields", None), tuple) \
        and all(type(f) is str for f in cls._fields) and callable(getattr(cls, "_make", None)) \
        and callable(getattr(cls, "_asdict", None))


def is_namedtuple_instance(obj):
    return is_namedtuple_class(type(obj))


def is_namedtuple(obj):
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def is_structseq_class(cls):
    return isinstance(cls, type) and issubclass(cls, tuple) and cls.__bases__ == (tuple,) \
        and isinstance(getattr(cls, "n_sequence_fields", None), int) \
        and isinstance(getattr(cls, "n_fields", None), int)


def is_structseq_instance(obj):
    return is_structseq_class(type(obj))


def is_structseq(obj):
    return is_structseq_class(obj if isinstance(obj, type) else type(obj))


def _get_node_type(tree):
    if is_namedtuple_instance(tree):
        return namedtuple
    return type(tree)


def _is_leaf(tree, is_leaf=None):
    return (is_leaf is not None and is_leaf(tree)) or _get_node_type(tree) not in SUPPORTED_NODES


# ---- registration ------------------------------------------------------------------------------------
def _private_register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                                  to_dumpable_context=None, from_dumpable_context=None, flatten_with_keys_fn=None):
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)
    if (to_dumpable_context is None) != (from_dumpable_context is None):
        raise ValueError(f"Both to_dumpable_context and from_dumpable_context for {cls} must be None or registered.")
    if serialized_type_name is None:
        serialized_type_name = "<unknown>"
    node = _SerializeNodeDef(cls, serialized_type_name, to_dumpable_context, from_dumpable_context)
    SUPPORTED_SERIALIZED_TYPES[cls] = node
    SERIALIZED_TYPE_TO_PYTHON_TYPE[serialized_type_name] = cls


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None, to_dumpable_context=None,
                         from_dumpable_context=None, flatten_with_keys_fn=None):
    _private_register_pytree_node(cls, flatten_fn, unflatten_fn, serialized_type_name=serialized_type_name,
                                  to_dumpable_context=to_dumpable_context,
                                  from_dumpable_context=from_dumpable_context,
                                  flatten_with_keys_fn=flatten_with_keys_fn)


def _register_pytree_node(cls, flatten_fn, unflatten_fn, to_str_fn=None, maybe_from_str_fn=None, *,
                          serialized_type_name=None, to_dumpable_context=None, from_dumpable_context=None,
                          flatten_with_keys_fn=None):
    """The deprecated spelling (transformers before 4.36 calls it)."""
    register_pytree_node(cls, flatten_fn, unflatten_fn, serialized_type_name=serialized_type_name,
                         to_dumpable_context=to_dumpable_context, from_dumpable_context=from_dumpable_context,
                         flatten_with_keys_fn=flatten_with_keys_fn)


def register_constant(cls):
    """A class whose instances are leaves compared by value (torch.export's constants): a node with no
    children whose context is the instance."""
    def flatten(x):
        return [], x

    def unflatten(_, context):
        return context

    register_pytree_node(cls, flatten, unflatten, flatten_with_keys_fn=lambda x: ([], x))


def register_dataclass(cls, *, field_names=None, drop_field_names=None, serialized_type_name=None):
    names = field_names if field_names is not None else [f.name for f in dataclasses.fields(cls)
                                                        if f.init and f.name not in (drop_field_names or ())]

    def flatten(x):
        return [getattr(x, n) for n in names], names

    def unflatten(values, context):
        return cls(**dict(zip(context, values)))

    def flatten_with_keys(x):
        return [(GetAttrKey(n), getattr(x, n)) for n in names], names

    register_pytree_node(cls, flatten, unflatten, serialized_type_name=serialized_type_name,
                         flatten_with_keys_fn=flatten_with_keys)


# ---- the built-in nodes ------------------------------------------------------------------------------
def _tuple_flatten(d):
    return list(d), None


def _tuple_flatten_with_keys(d):
    values, context = _tuple_flatten(d)
    return [(SequenceKey(i), v) for i, v in enumerate(values)], context


def _tuple_unflatten(values, context):
    return tuple(values)


def _list_flatten(d):
    return d, None


def _list_flatten_with_keys(d):
    values, context = _list_flatten(d)
    return [(SequenceKey(i), v) for i, v in enumerate(values)], context


def _list_unflatten(values, context):
    return list(values)


def _dict_flatten(d):
    return list(d.values()), list(d.keys())


def _dict_flatten_with_keys(d):
    values, context = _dict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context, values)], context


def _dict_unflatten(values, context):
    return dict(zip(context, values))


def _namedtuple_flatten(d):
    return list(d), type(d)


def _namedtuple_flatten_with_keys(d):
    values, context = _namedtuple_flatten(d)
    return [(GetAttrKey(field), v) for field, v in zip(context._fields, values)], context


def _namedtuple_unflatten(values, context):
    return context(*values)


def _ordereddict_flatten(d):
    return list(d.values()), list(d.keys())


def _ordereddict_flatten_with_keys(d):
    values, context = _ordereddict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(context, values)], context


def _ordereddict_unflatten(values, context):
    return OrderedDict((key, value) for key, value in zip(context, values))


def _defaultdict_flatten(d):
    values, dict_context = _dict_flatten(d)
    return values, [d.default_factory, dict_context]


def _defaultdict_flatten_with_keys(d):
    values, context = _defaultdict_flatten(d)
    _, dict_keys = context
    return [(MappingKey(k), v) for k, v in zip(dict_keys, values)], context


def _defaultdict_unflatten(values, context):
    default_factory, dict_context = context
    return defaultdict(default_factory, _dict_unflatten(values, dict_context))


def _deque_flatten(d):
    return list(d), d.maxlen


def _deque_flatten_with_keys(d):
    values, context = _deque_flatten(d)
    return [(SequenceKey(i), v) for i, v in enumerate(values)], context


def _deque_unflatten(values, context):
    return deque(values, maxlen=context)


_private_register_pytree_node(tuple, _tuple_flatten, _tuple_unflatten, serialized_type_name="builtins.tuple",
                              flatten_with_keys_fn=_tuple_flatten_with_keys)
_private_register_pytree_node(list, _list_flatten, _list_unflatten, serialized_type_name="builtins.list",
                              flatten_with_keys_fn=_list_flatten_with_keys)
_private_register_pytree_node(dict, _dict_flatten, _dict_unflatten, serialized_type_name="builtins.dict",
                              flatten_with_keys_fn=_dict_flatten_with_keys)
_private_register_pytree_node(namedtuple, _namedtuple_flatten, _namedtuple_unflatten,
                              serialized_type_name="collections.namedtuple",
                              flatten_with_keys_fn=_namedtuple_flatten_with_keys)
_private_register_pytree_node(OrderedDict, _ordereddict_flatten, _ordereddict_unflatten,
                              serialized_type_name="collections.OrderedDict",
                              flatten_with_keys_fn=_ordereddict_flatten_with_keys)
_private_register_pytree_node(defaultdict, _defaultdict_flatten, _defaultdict_unflatten,
                              serialized_type_name="collections.defaultdict",
                              flatten_with_keys_fn=_defaultdict_flatten_with_keys)
_private_register_pytree_node(deque, _deque_flatten, _deque_unflatten, serialized_type_name="collections.deque",
                              flatten_with_keys_fn=_deque_flatten_with_keys)


# ---- TreeSpec ----------------------------------------------------------------------------------------
class TreeSpec:
    def __init__(self, type, context, children_specs):
        self.type = type
        self.context = context
        self.children_specs = list(children_specs)
        self.num_nodes = 1 + sum(s.num_nodes for s in self.children_specs)
        self.num_leaves = sum(s.num_leaves for s in self.children_specs)
        self.num_children = len(self.children_specs)

    def is_leaf(self):
        return self.num_nodes == 1 and self.num_leaves == 1

    def children(self):
        return list(self.children_specs)

    def child(self, index):
        return self.children_specs[index]

    def __eq__(self, other):
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (self.type, self.context, self.children_specs) == (other.type, other.context, other.children_specs)

    def __hash__(self):
        return hash((self.type, self.num_nodes, self.num_leaves))

    def __repr__(self, indent=0):
        repr_prefix = f"TreeSpec({self.type.__name__}, {self.context}, ["
        children_specs_str = ""
        if self.num_children > 0:
            indent += 2
            children_specs_str += self.children_specs[0].__repr__(indent)
            children_specs_str += "," if self.num_children > 1 else ""
            children_specs_str += ",".join(["\n" + " " * indent + child.__repr__(indent)
                                            for child in self.children_specs[1:]])
        return repr_prefix + children_specs_str + "])"

    def flatten_up_to(self, tree):
        """The subtrees of `tree` where this spec has leaves; `tree` must have this spec's structure
        down to there."""
        subtrees = []
        self._flatten_up_to(tree, subtrees)
        return subtrees

    def _flatten_up_to(self, tree, subtrees):
        if self.is_leaf():
            subtrees.append(tree)
            return
        node_type = _get_node_type(tree)
        if self.type not in (dict, OrderedDict, defaultdict):
            if node_type != self.type:
                raise ValueError(f"Type mismatch; expected {self.type!r}, but got {node_type!r}.")
            flatten_fn = SUPPORTED_NODES[node_type].flatten_fn
            children, context = flatten_fn(tree)
            if len(children) != self.num_children:
                raise ValueError(f"Node arity mismatch; expected {self.num_children}, but got {len(children)}.")
            if context != self.context:
                raise ValueError(f"Node context mismatch for custom node type {self.type!r}.")
        else:
            # dicts of either kind match by their keys, in this spec's order
            if node_type not in (dict, OrderedDict, defaultdict):
                raise ValueError(f"Type mismatch; expected {self.type!r}, but got {node_type!r}.")
            expected = self.context[1] if self.type is defaultdict else self.context
            if len(tree) != len(expected):
                raise ValueError(f"Node arity mismatch; expected {len(expected)}, but got {len(tree)}.")
            if set(tree.keys()) != set(expected):
                raise ValueError(f"Node keys mismatch; missing key(s): {set(expected) - set(tree.keys())}; "
                                 f"extra key(s): {set(tree.keys()) - set(expected)}.")
            children = [tree[key] for key in expected]
        for child, spec in zip(children, self.children_specs):
            spec._flatten_up_to(child, subtrees)

    def unflatten(self, leaves):
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers to "
                             f"a pytree that holds {self.num_leaves} items ({self}).")
        if self.is_leaf():
            return leaves[0]
        unflatten_fn = SUPPORTED_NODES[self.type].unflatten_fn
        start = 0
        children = []
        for spec in self.children_specs:
            end = start + spec.num_leaves
            children.append(spec.unflatten(leaves[start:end]))
            start = end
        return unflatten_fn(children, self.context)


class LeafSpec(TreeSpec):
    def __init__(self):
        self.type = None
        self.context = None
        self.children_specs = []
        self.num_nodes = 1
        self.num_leaves = 1
        self.num_children = 0

    def __repr__(self, indent=0):
        return "*"


_LEAF_SPEC = LeafSpec()


# ---- flatten, unflatten, map -------------------------------------------------------------------------
def tree_flatten(tree, is_leaf=None):
    leaves = []

    def helper(node):
        if _is_leaf(node, is_leaf):
            leaves.append(node)
            return _LEAF_SPEC
        node_type = _get_node_type(node)
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        return TreeSpec(node_type, context, [helper(c) for c in children])

    spec = helper(tree)
    return leaves, spec


def tree_unflatten(leaves, treespec):
    if not isinstance(treespec, TreeSpec):
        raise TypeError(f"tree_unflatten(leaves, treespec): Expected `treespec` to be instance of TreeSpec but got "
                        f"item of type {type(treespec)}.")
    return treespec.unflatten(leaves)


def tree_iter(tree, is_leaf=None):
    if _is_leaf(tree, is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_get_node_type(tree)].flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf=is_leaf)


def tree_leaves(tree, is_leaf=None):
    return list(tree_iter(tree, is_leaf=is_leaf))


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf=is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    leaves, treespec = tree_flatten(tree, is_leaf=is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(r) for r in rests]
    return treespec.unflatten(map(func, *flat_args))


def tree_map_(func, tree, *rests, is_leaf=None):
    leaves, treespec = tree_flatten(tree, is_leaf=is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(r) for r in rests]
    collections.deque(map(func, *flat_args), maxlen=0)
    return tree


def _type_predicate(type_or_types):
    if isinstance(type_or_types, type) or (isinstance(type_or_types, tuple)
                                           and all(isinstance(t, type) for t in type_or_types)):
        return lambda x: isinstance(x, type_or_types)
    raise TypeError(f"Unexpected type_or_types: {type_or_types}")


def tree_map_only(type_or_types, func, tree, is_leaf=None):
    pred = _type_predicate(type_or_types)
    return tree_map(lambda x: func(x) if pred(x) else x, tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types, func, tree, is_leaf=None):
    pred = _type_predicate(type_or_types)
    return tree_map_(lambda x: func(x) if pred(x) else x, tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None):
    return all(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_any(pred, tree, is_leaf=None):
    return any(map(pred, tree_iter(tree, is_leaf=is_leaf)))


def tree_all_only(type_or_types, pred, tree, is_leaf=None):
    t = _type_predicate(type_or_types)
    return all(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if t(x))


def tree_any_only(type_or_types, pred, tree, is_leaf=None):
    t = _type_predicate(type_or_types)
    return any(pred(x) for x in tree_iter(tree, is_leaf=is_leaf) if t(x))


# ---- with paths --------------------------------------------------------------------------------------
def _flatten_with_keys(node):
    node_def = SUPPORTED_NODES[_get_node_type(node)]
    if node_def.flatten_with_keys_fn is None:
        raise ValueError(f"Did not find a flatten_with_keys_fn for type: {node_def.type}. Please pass a "
                         "flatten_with_keys_fn argument to register_pytree_node.")
    return node_def.flatten_with_keys_fn(node)


def _generate_key_paths(key_path, tree, is_leaf=None):
    if _is_leaf(tree, is_leaf):
        yield key_path, tree
        return
    key_children, _ = _flatten_with_keys(tree)
    for k, c in key_children:
        yield from _generate_key_paths((*key_path, k), c, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    _, treespec = tree_flatten(tree, is_leaf)
    return list(_generate_key_paths((), tree, is_leaf)), treespec


def tree_leaves_with_path(tree, is_leaf=None):
    return list(_generate_key_paths((), tree, is_leaf))


def tree_map_with_path(func, tree, *rests, is_leaf=None):
    keypath_leaves, treespec = tree_flatten_with_path(tree, is_leaf)
    keypath_leaves = list(zip(*keypath_leaves))
    all_keypath_leaves = keypath_leaves + [treespec.flatten_up_to(r) for r in rests]
    return treespec.unflatten(func(*xs) for xs in zip(*all_keypath_leaves))


def treespec_pprint(treespec):
    return repr(treespec)


def arg_tree_leaves(*args, **kwargs):
    return tree_leaves((args, kwargs))


def _broadcast_to_and_flatten(tree, treespec, is_leaf=None):
    """`tree` broadcast to `treespec`'s structure and flattened, or None where it does not fit."""
    if _is_leaf(tree, is_leaf):
        return [tree] * treespec.num_leaves
    if treespec.is_leaf():
        return None
    node_type = _get_node_type(tree)
    if node_type != treespec.type:
        return None
    children, context = SUPPORTED_NODES[node_type].flatten_fn(tree)
    if len(children) != treespec.num_children or context != treespec.context:
        return None
    result = []
    for child, spec in zip(children, treespec.children_specs):
        flat = _broadcast_to_and_flatten(child, spec, is_leaf=is_leaf)
        if flat is None:
            return None
        result += flat
    return result

