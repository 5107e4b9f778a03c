"""Constructs bench/parity found onnxify stopping at in real model code (issue 15), each in a module of
tests/torch/models/parity_causes.py, exported with a symbolic batch and checked against PyTorch 2.14
eager in ONNX Runtime at two batch sizes (harness.py)."""
import pytest

from harness import Batch, Case, check


def case(name, model, shapes, gen=None, **inputs):
    return Case(name, "parity_causes.py", model, inputs, shapes=shapes, gen=gen)


N2 = [{"N": 2}, {"N": 3}]

CASES = [
    case("conv_tbc", "TimeFirstConv()", [{"T": 5, "N": 2}, {"T": 7, "N": 3}], x="float32[T,N,4]"),
    case("resize_and_out", "ResizeAndOut()", N2, x="float32[N,5]"),
    case("numpy_grids", "NumpyGrids()", [{"N": 2, "H": 3, "W": 4}, {"N": 1, "H": 5, "W": 2}], x="float32[N,2,H,W]"),
    case("numpy_int_sizes", "NumpyIntSizes()", N2, x="float32[N,3,4,4]"),
    case("sequence_index", "SequenceIndex()", N2, gen={"coords": "int:0:3"}, coords="int64[N,2]"),
    case("diagonal_cube", "DiagonalCube()", N2, x="float32[N,3,3]"),
    case("run_time_range", "RunTimeRange()", [{"N": 2}, {"N": 4}], gen={"labels": "int:0:5"},
         scores="float32[N,5]", labels="int64[N]"),
    case("triangular_mask", "TriangularMask()", N2, x="float32[N,4,5,5]"),
    case("running_loss", "RunningLoss()", [{"N": 2}, {"N": 5}], preds="float32[N,3,4]", target="float32[3,4]"),
    case("numpy_into_tensor", "NumpyIntoTensor()", N2, x="float32[N,5,6]"),
    case("heads_as_batch", "HeadsAsBatch()", [{"N": 2, "L": 5}, {"N": 3, "L": 2}], x="float32[N,L,4]"),
    case("sparse_on_dense", "GraphPropagation()", [{"N": 3}, {"N": 5}], adj="float32[N,N]", feats="float32[N,4]"),
    case("static_forward", "StaticForward()", N2, x="float32[N,6]"),
    case("clock_unused", "ClockUnused()", N2, x="float32[N,4]"),
    case("split_keywords", "SplitKeywords()", N2, x="float32[N,4]"),
    case("layout_like", "LayoutLike()", N2, x="float32[N,4]"),
    case("where_indices", "WhereIndices()", N2, x="float32[N,4]"),
    case("scalars_first", "ScalarsFirst()", N2, x="float32[N,3]", b="float32[N,3,3]"),
    case("private_layers", "PrivateLayers()", N2, x="float32[N,5]"),
    case("run_time_scalars", "RunTimeScalars()", [{"N": 2}, {"N": 5}], x="float32[N,3,4]"),
    case("binned_calibration", "BinnedCalibration()", [{"N": 6}, {"N": 9}], gen={"labels": "int:0:4"},
         logits="float32[N,4]", labels="int64[N]"),
    case("real_part", "RealPart()", N2, x="float32[N,3]"),
    case("redundancy_reduction", "RedundancyReduction()", [{"N": 3}, {"N": 5}], a="float32[N,6]", b="float32[N,6]"),
    Case("strided_reshapes", "parity_causes.py", "StridedReshapes()", {"x": "float32[4,6]"}, shapes=[{}]),
    case("gaussian_scores", "GaussianScores()", N2, x="float32[N,3]"),
    case("run_time_math", "RunTimeMath()", [{"N": 2}, {"N": 5}], x="float32[N,8]"),
    case("size_as_scalar", "SizeAsScalar()", [{"N": 3}, {"N": 6}], x="float32[N,3]"),
    case("like_factories", "LikeFactories()", N2, x="float32[N,3]"),
    case("margin_head", "MarginHead()", N2, x="float32[N,4]"),
    case("shape_check_message", "ShapeCheckMessage()", N2, gen={"valid": "int:0:2"}, x="float32[N,3]",
         valid="float32[N,3]"),
    Case("packed_by_path", "parity_causes.py", "PackedByPath()", {"x": "float32[N,5,3]", "lengths": "int64[N]"},
         shapes=[{"N": 2}, {"N": 3}], paths=None,
         gen={"lengths": "int:1:6"}),
    case("learned_clip", "LearnedClip()", N2, x="float32[N,4]"),
    case("copied_shapes", "CopiedShapes()", N2, x="float32[N,3,4]"),
    case("profiled_regions", "ProfiledRegions()", N2, x="float32[N,4]"),
    case("tuple_groups", "TupleGroups()", N2, x="float32[N,4,3]"),
    case("numpy_filter_bank", "NumpyFilterBank()", N2, x="float32[N,2,7]"),
    case("random_factory_init", "RandomFactoryInit()", N2, x="float32[N,4]"),
    case("log_scans", "LogScans()", N2, x="float32[N,4]"),
    case("square_from_count", "SquareFromCount(4)", N2, x="float32[N,64]"),
    case("batch_of_one", "BatchOfOne()", N2, y_pred="float32[N,1,4]", y_true="float32[N,1,4]"),
    case("batch_of_one_kept", "BatchOfOneKept()", [{"N": 1}, {"N": 3}], x="float32[N,4]"),
    case("empty_batch_conv", "EmptyBatchConv(4, 4, 3, padding=1)", N2, x="float32[N,4,5,5]"),
    case("padded_pools", "PaddedPools()", N2, x="float32[N,4,6]"),
    case("strided_views", "StridedViews()", N2, x="float32[N,4,4]"),
    case("legacy_bits", "LegacyBits()", N2, x="float32[N,6,4,4]"),
    case("rows_by_enumerate_zip", "RowsByEnumerateZip()", N2, x="float32[N,4]", y="float32[N,4]"),
    case("rows_by_comprehension", "RowsByComprehension()", N2, x="float32[N,4]", y="float32[N,4]"),
    case("empty_batch_guard", "EmptyBatchGuard(3, 4, 3)", N2, x="float32[N,3,6,6]"),
    case("drop_own_row", "DropOwnRow()", [{"N": 3}, {"N": 5}], x="float32[N,4]"),
    case("buffer_stage_check", "BufferStageCheck()", N2, x="float32[N,3,6,6]"),
    case("numpy_output", "NumpyOutput()", N2, x="float32[N,3]"),
    case("real_conjugates", "RealConjugates()", N2, x="float32[N,3,5]"),
    case("select_one_slice", "SelectOneSlice()", N2, x="float32[N,4,3,5]"),
    case("rows_resized", "RowsResized()", N2, x="float32[N,3,4,5]"),
    case("even_rows_by_index_list", "EvenRowsByIndexList()", [{"N": 3}, {"N": 6}], x="float32[N,4]"),
    case("parameter_cases", "ParameterCases()", N2, x="float32[N,4]"),
    case("parameter_cases_negative", "ParameterCases(-0.2)", N2, x="float32[N,4]"),
    case("class_balance", "ClassBalance()", [{"N": 3}, {"N": 7}], logits="float32[N,4,3,3]"),
    case("input_keywords", "InputKeywords()", N2, x="float32[N,3,4,4]"),
    case("single_class_shortcut", "SingleClassShortcut()", [{"N": 2, "C": 3}, {"N": 3, "C": 4}],
         emb="float32[N,4,6]", masks="float32[N,C,6]"),
    case("label_names_at_class_level", "LabelNamesAtClassLevel()", N2, x="float32[N,6]"),
    case("integer_bits", "IntegerBits()", [{"N": 3}, {"N": 6}], a="float32[N,4]", b="float32[N,4]"),
    case("numpy_ids_of_batch", "NumpyIdsOfBatch()", [{"N": 3}, {"N": 6}], dists="float32[N,N]", scores="float32[N,1]"),
    case("grid_from_ranges", "GridFromRanges()", N2, x="float32[N,3,4,5]"),
    case("same_memory", "SameMemory()", N2, x="float32[N,4]", y="float32[N,4]"),
    case("masked_rows_in_loop", "MaskedRowsInLoop()", [{"N": 3}, {"N": 5}], gen={"labels": "int:0:5"},
         x="float32[N,4]", labels="float32[N]"),
    case("min_of_tensors", "MinOfTensors()", [{"N": 2}, {"N": 6}], x="float32[N,4]"),
    case("integer_invert", "IntegerInvert()", N2, gen={"m": "int:-9:300"}, x="float32[N,3]", m="int64[N,3]"),
    case("rows_as_lists", "RowsAsLists()", [{"N": 2}, {"N": 5}], x="float32[N,4]", y="float32[N,4]"),
    case("rows_by_split", "RowsBySplit()", [{"T": 3, "N": 2}, {"T": 5, "N": 3}], x="float32[T,N,4]"),
    case("assert_on_sizes", "AssertOnSizes()", [{"N": 2}, {"N": 6}], x="float32[N,4]"),
    case("repeated_list", "RepeatedList()", [{"N": 2}, {"N": 3}], x="float32[N,2,3]"),
    case("zip_with_modules", "ZipWithModules()", [{"N": 3}, {"N": 5}], goals="float32[N,4,3]"),
    case("bincount_totals", "BincountTotals()", [{"N": 4}, {"N": 7}], gen={"labels": "int:0:3"}, labels="int64[N]",
         x="float32[N,2]"),
    case("numpy_run_time_range", "NumpyRunTimeRange()", [{"N": 3}, {"N": 4}], gen={"counts": "int:1:3"},
         x="float32[N,4]", counts="int64[2]"),
    Case("dicts_from_both_arms", "parity_causes.py", "LossWithLog()",
         {"pred": "float32[N,2,3]", "gt": "float32[N,3]", "mask": "float32[N,3]"},
         paths=[("masked", {"pred": "torch.rand(2, 2, 3)", "gt": "torch.rand(2, 3)", "mask": "torch.rand(2, 3)"}),
                ("empty_mask", {"pred": "torch.rand(3, 2, 3)", "gt": "torch.rand(3, 3)", "mask": "torch.zeros(3, 3)"})]),
    case("gates_by_counter", "GatedRecurrence()", [{"N": 4}, {"N": 1}], gate="float32[N,3,2]", x="float32[N,3,2]"),
    case("grid_buffers", "GridBuffers()", N2, x="float32[N,4]"),
    case("script_module_subclass", "ScriptedBackprojection()", N2, depth="float32[N,1,3,4]"),
    case("permuted_mask_linear", "PermutedMaskLinear()", N2, x="float32[N,5]"),
    case("checkpoint_state", "CheckpointState()", N2, img="float32[N,3,4,4]"),
    # bool(flag.item()) of a uint8 parameter: decided by the checkpoint's flag, both ways
    case("data_aware_init_first_call", "DataAwareInit()", N2, x="float32[N,4]"),
    case("data_aware_init_done", "DataAwareInit(initialized=True)", N2, x="float32[N,4]"),
    # lists of numbers indexed at run time (a Loop counter, an item of t.numpy())
    case("lengths_to_list", "LengthsToList()", [{"T": 5}, {"T": 7}], gen={"lengths": "int:1:5"}, x="float32[3,T,2]",
         lengths="int64[3]", weights="float32[3]"),
    case("weight_recurrence", "WeightRecurrence()", N2, x="float32[N,3,4]"),
    case("weighted_terms_by_index", "WeightedTermsByIndex()", N2, gen={"pick": "int:0:3"}, outputs="float32[N,3,4]",
         targets="float32[N,3,4]", pick="int64[2]"),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_parity_causes(case):
    check(BATCH.get(case))


def test_batch_of_one_says_what_it_assumes(tmp_path):
    """The kept branch is announced where the condition is: the user learns that a batch of 1 is
    outside what the exported model computes."""
    import os
    import subprocess
    from harness import MODELS, ONNXIFY
    cmd = [ONNXIFY, "export", os.path.join(MODELS, "parity_causes.py"), "--model", "BatchOfOne()",
           "--input", "y_pred=float32[N,1,4]", "--input", "y_true=float32[N,1,4]", "-o", str(tmp_path / "b.onnx")]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "parity_causes.py:" in p.stderr and "warning: the branches of this condition" in p.stderr, p.stderr
    assert "different shapes" in p.stderr, p.stderr
    assert "assumes those sizes are at least 2" in p.stderr and "keeps the else branch" in p.stderr, p.stderr
    # only the check whose branches differ in rank: `not y_pred.size(0) > 1` stays an If
    assert p.stderr.count("warning: the branches of this condition") == 1, p.stderr
    # the kept branch's squeeze() of [N, 1, 4] says its own assumption (N != 1); the dropped branch's
    # (the batch-of-one arm, line 641) says nothing
    warned = [w for w in p.stderr.splitlines() if "warning:" in w]
    assert all("squeeze()" in w for w in warned if "branches of this condition" not in w), p.stderr
    assert not any("parity_causes.py:641:" in w for w in warned), p.stderr
