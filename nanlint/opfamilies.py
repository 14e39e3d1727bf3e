"""The members of each op family of ``optable.FAMILIES``: names per namespace, as data.

Drawn up from the public functions of the installed TensorFlow (also ``tf.compat.v1``),
Keras (``keras.ops``, ``keras.activations``, the backend ``K``, old and new) and numpy,
minus the spellings ``optable.OPS`` writes by hand; ``tests/test_op_model.py`` checks that
every public function is in the table. Edited by hand: a new function goes into the family
whose model fits it (docs/development.md, "How to add an op"). A family's model is in
``optable``.
"""

from typing import Dict

# TF1's contrib layers are one module spelled three ways (`tf_slim` spells them as slim):
# its members are listed once per family and given to each spelling.
CONTRIB_LAYERS = ("tf.contrib.layers", "tf.contrib.slim", "tf.contrib.slim.layers")


def _contrib(names: str) -> Dict[str, str]:
    return {namespace: names for namespace in CONTRIB_LAYERS}


MEMBERS: Dict[str, Dict[str, str]] = {
    "acos": {
        "tf": "acos",
        "tf.math": "acos",
        "ops": "arccos",
        "np": "acos arccos",
    },
    "acosh": {
        "tf": "acosh",
        "tf.math": "acosh",
        "ops": "arccosh",
        "np": "acosh arccosh",
    },
    "add": {
        "tf": "sparse_add",
        "tf.sparse": "add",
        "np": "add",
    },
    "asin": {
        "tf": "asin",
        "tf.math": "asin",
        "ops": "arcsin",
        "np": "arcsin asin",
    },
    "asinh": {
        "tf": "asinh",
        "tf.math": "asinh",
        "ops": "arcsinh",
        "np": "arcsinh asinh",
    },
    "atan": {
        "tf": "atan",
        "tf.math": "atan",
        "ops": "arctan",
        "np": "arctan atan",
    },
    "atan2": {
        "tf": "atan2",
        "tf.math": "atan2",
        "ops": "arctan2",
        "np": "arctan2 atan2",
    },
    "atanh": {
        "tf": "atanh",
        "tf.math": "atanh",
        "ops": "arctanh",
        "np": "arctanh atanh",
    },
    "average": {
        "tf.image": "resize resize_area resize_bilinear resize_images resize_nearest_neighbor",
        "tf": "segment_mean sparse_segment_mean unsorted_segment_mean",
        "tf.sparse": "segment_mean",
        # TF1 only, as the pools of tf.nn they call
        "tf.layers": "average_pooling1d average_pooling2d average_pooling3d",
        **_contrib("avg_pool2d avg_pool3d pool"),
        "tf.math": "segment_mean unsorted_segment_mean",
        "tf.nn": (
            "avg_pool avg_pool1d avg_pool2d avg_pool3d avg_pool_v2 fractional_avg_pool pool "
            "quantized_avg_pool"
        ),
        "K": "pool2d pool3d resize_images",
        "ops": "adaptive_average_pool average average_pool nanmean",
        "np": "average interp mean nanmean",
    },
    "bessel_i0e": {
        "tf.math": "bessel_i0e",
    },
    "bool": {
        "tf": (
            "is_inf is_nan is_non_decreasing is_strictly_increasing logical_xor reduce_all "
            "reduce_any sparse_to_indicator"
        ),
        "tf.math": (
            "in_top_k is_inf is_nan is_non_decreasing is_strictly_increasing logical_xor "
            "reduce_all reduce_any"
        ),
        "tf.nn": "in_top_k",
        "tf.sparse": "to_indicator",
        "K": "all any in_top_k",
        "ops": (
            "all allclose any in_top_k isclose isfinite isin isinf isnan isneginf isposinf "
            "isreal logical_xor signbit"
        ),
        "np": (
            "all allclose any array_equal array_equiv equal greater greater_equal isclose "
            "iscomplex isfinite in1d isin isinf isnan isneginf isposinf isreal less "
            "less_equal logical_and logical_not logical_or logical_xor not_equal signbit"
        ),
    },
    "cast": {
        "tf": (
            "complex saturate_cast to_bfloat16 to_complex128 to_complex64 to_int32 to_int64"
        ),
        "ops": "array saturate_cast",
        "np": (
            "array asanyarray asarray asarray_chkfinite astype complex double float float128 "
            "float16 float32 float64 half int int16 int32 int64 int8 int_ intc long longdouble "
            "longlong short single ubyte uint uint16 uint32 uint64 uint8 uintc uintp ulong "
            "ulonglong ushort"
        ),
    },
    "cbrt": {
        "ops": "cbrt",
        "np": "cbrt",
    },
    "clip": {
        "np": "clip",
    },
    "cosh": {
        "tf": "cosh",
        "tf.math": "bessel_i0 cosh",
        "ops": "cosh",
        "np": "cosh",
    },
    "diagonal": {
        "tf": "diag_part matrix_diag_part",
        "tf.linalg": "diag_part tensor_diag_part",
        "ops": "diagonal",
        "np": "diagonal",
        "np.linalg": "diagonal",
    },
    "digamma": {
        "tf": "digamma",
        "tf.math": "digamma",
    },
    "divide": {
        "np": "divide true_divide",
    },
    "elu": {
        "tf.nn": "elu",
        "K": "elu",
        "ops": "celu elu",
        "activations": "celu elu",
    },
    "erf": {
        "tf": "erf",
        "tf.math": "erf",
        "ops": "erf",
    },
    "erfc": {
        "tf": "erfc",
        "tf.math": "erfc",
        "ops": "erfc",
    },
    "erfcinv": {
        "tf.math": "erfcinv",
    },
    "erfinv": {
        "tf.math": "erfinv",
        "ops": "erfinv",
    },
    "expm1": {
        "tf": "expm1",
        "tf.math": "expm1",
        "ops": "expm1",
        "np": "expm1",
    },
    "fill": {
        "tf": "meshgrid",
        "ops": "empty empty_like meshgrid",
        "np": "empty empty_like meshgrid",
    },
    "span": {
        "tf": "lin_space linspace range",
        "tf.ragged": "range",
        "K": "arange",
        "ops": "arange linspace",
        "np": "arange linspace",
    },
    "fraction": {
        "tf.math": "zero_fraction",
        "tf.nn": "zero_fraction",
    },
    "gelu": {
        "tf.nn": "gelu",
        "ops": "gelu",
        "activations": "gelu",
    },
    "hypot": {
        "ops": "hypot",
        "np": "hypot",
    },
    "incomplete": {
        "tf": "betainc igamma igammac",
        "tf.math": "betainc igamma igammac",
    },
    "index": {
        "tf": (
            "arg_max arg_min argmax argmin argsort bincount confusion_matrix edit_distance "
            "histogram_fixed_width histogram_fixed_width_bins invert_permutation searchsorted "
            "unravel_index"
        ),
        "tf.math": "argmax argmin bincount confusion_matrix invert_permutation",
        "tf.linalg": "matrix_rank",
        "tf.sparse": "bincount",
        "tf.ragged": "row_splits_to_segment_ids segment_ids_to_row_splits",
        "tf.RaggedTensor": "nested_row_lengths row_lengths",
        "K": "argmax argmin",
        "ops": (
            "argmax argmin argpartition argsort bincount digitize gcd histogram lcm "
            "matrix_rank multi_hot nanargmax nanargmin nonzero searchsorted unravel_index"
        ),
        "np": (
            "argmax argmin argpartition argsort argwhere bincount bitwise_count count_nonzero "
            "digitize flatnonzero gcd histogram histogram2d histogramdd lcm nanargmax "
            "nanargmin nonzero packbits ravel_multi_index searchsorted unpackbits "
            "unravel_index"
        ),
        "np.linalg": "matrix_rank",
    },
    "integer": {
        "tf": "ceil floor floor_div floordiv rint round truncatediv",
        "tf.math": "ceil floor floordiv rint round",
        "K": "round",
        "ops": (
            "bitwise_and bitwise_invert bitwise_left_shift bitwise_not bitwise_or "
            "bitwise_right_shift bitwise_xor ceil floor floor_divide left_shift right_shift "
            "round trunc"
        ),
        "np": (
            "around bitwise_and bitwise_invert bitwise_left_shift bitwise_not bitwise_or "
            "bitwise_right_shift bitwise_xor ceil fix floor floor_divide invert left_shift "
            "right_shift rint round trunc"
        ),
    },
    "lgamma": {
        "tf": "lgamma",
        "tf.math": "lgamma",
    },
    "linear": {
        "tf.layers": "batch_normalization",
        **_contrib("batch_norm layer_norm group_norm instance_norm gdn"),
        "tf.sparse": "sampled_addmm",
        "tf.image": (
            "per_image_standardization psnr rgb_to_grayscale rgb_to_yiq rgb_to_yuv yiq_to_rgb "
            "yuv_to_rgb"
        ),
        "tf": (
            "cholesky cholesky_solve clip_by_average_norm clip_by_global_norm clip_by_norm "
            "conv conv2d_backprop_filter_v2 conv2d_backprop_input_v2 cross eig eigvals fft "
            "fft2d fft3d fftnd global_norm ifft ifft2d ifft3d ifftnd irfftnd "
            "matrix_determinant matrix_inverse matrix_solve matrix_solve_ls "
            "matrix_square_root matrix_triangular_solve qr quantized_concat rfftnd "
            "scatter_add scatter_div scatter_max scatter_min scatter_mul scatter_nd_add "
            "scatter_nd_sub scatter_nd_update scatter_sub scatter_update self_adjoint_eig "
            "self_adjoint_eigvals sparse_matmul svd "
            "tensor_scatter_add tensor_scatter_nd_add tensor_scatter_nd_sub "
            "tensor_scatter_sub"
        ),
        "tf.math": "polyval",
        "tf.nn": (
            "atrous_conv2d atrous_conv2d_transpose batch_norm_with_global_normalization "
            "batch_normalization compute_average_loss conv1d_transpose conv2d_backprop_filter "
            "conv2d_backprop_input conv2d_transpose conv3d_backprop_filter "
            "conv3d_backprop_filter_v2 conv3d_transpose conv_transpose convolution "
            "depthwise_conv2d depthwise_conv2d_backprop_filter "
            "depthwise_conv2d_backprop_input depthwise_conv2d_native "
            "depthwise_conv2d_native_backprop_filter depthwise_conv2d_native_backprop_input "
            "fused_batch_norm isotonic_regression local_response_normalization "
            "log_poisson_loss lrn moments normalize_moments quantized_conv2d quantized_relu_x "
            "scale_regularization_loss separable_conv2d sufficient_statistics "
            "weighted_moments with_space_to_batch"
        ),
        "tf.linalg": (
            "adjoint banded_triangular_solve cholesky cholesky_solve cross det eig eigh "
            "eigh_tridiagonal eigvals eigvalsh expm global_norm inv logdet logm lstsq lu "
            "lu_matrix_inverse lu_reconstruct lu_solve matvec normalize pinv qr slogdet solve "
            "sqrtm svd triangular_solve tridiagonal_matmul tridiagonal_solve"
        ),
        "K": (
            "batch_normalization conv2d_transpose depthwise_conv2d local_conv1d local_conv2d "
            "separable_conv2d"
        ),
        # transforms of a signal (Fourier, cosine, short-time), frames added back
        "tf.signal": (
            "dct fft fft2d fft3d fftnd idct ifft ifft2d ifft3d ifftnd inverse_mdct "
            "inverse_stft irfft irfft2d irfft3d irfftnd mdct mfccs_from_log_mel_spectrograms "
            "overlap_and_add rfft rfft2d rfft3d rfftnd stft"
        ),
        "ops": (
            "batch_normalization cdist cholesky cholesky_inverse conv conv_transpose corrcoef "
            "correlate cross depthwise_conv det diff dot_product_attention eig eigh fft fft2 "
            "fold geomspace ifft2 inner inv irfft istft kron layer_normalization logdet "
            "logspace lstsq lu_factor moments outer pinv polar psnr qr rfft rms_normalization "
            "scatter_update separable_conv slice_update slogdet solve solve_triangular stft "
            "svd trapezoid vander vdot view_as_complex view_as_real"
        ),
        "np": (
            "convolve corrcoef correlate cov cross diff dot ediff1d einsum geomspace gradient "
            "histogram_bin_edges inner kron logspace matmul matvec outer poly polyadd polyder "
            "polydiv polyfit polyint polymul polysub polyval roots tensordot trapezoid vander "
            "vdot vecdot vecmat"
        ),
        "np.linalg": (
            "cholesky cross det eig eigh eigvals eigvalsh inv lstsq matmul matrix_power "
            "multi_dot outer pinv qr slogdet solve svd tensordot tensorinv tensorsolve vecdot"
        ),
    },
    "log": {
        "ops": "log10 log2",
        "np": "log log10 log2",
    },
    "log1p": {
        "tf": "log1p",
        "tf.math": "log1p",
        "ops": "log1p",
        "np": "log1p",
    },
    "loss": {
        "tf.nn": "ctc_loss ctc_loss_v2 nce_loss sampled_softmax_loss",
        "K": (
            "binary_focal_crossentropy categorical_focal_crossentropy ctc_batch_cost"
        ),
        "ops": "ctc_loss",
        "tf.losses": "hinge_loss huber_loss mean_pairwise_squared_error",
        # Keras' losses of a label and a prediction that are at least 0 for any input
        # (Keras 2's short names too)
        "losses": (
            "binary_focal_crossentropy categorical_focal_crossentropy categorical_hinge ctc "
            "hinge huber mean_absolute_percentage_error mape MAPE "
            "mean_squared_logarithmic_error msle MSLE squared_hinge"
        ),
    },
    "maximum": {
        "ops": "fmax",
        "np": "fmax maximum",
    },
    "minimum": {
        "ops": "fmin",
        "np": "fmin minimum",
    },
    "multiply": {
        "np": "multiply",
    },
    "ndtri": {
        "tf.math": "ndtri",
    },
    "nonnegative": {
        "tf.nn": "crelu",
        "ops": "fabs ptp sparse_plus",
        "activations": "sparse_plus",
        "np": "abs absolute fabs ptp",
    },
    "nonnegative_reduce": {
        "tf.math": "reduce_euclidean_norm",
        "tf.nn": "l2_loss",
    },
    "spread": {
        "ops": "nanstd nanvar",
        "np": "nanstd nanvar std var",
    },
    "norms": {
        "np.linalg": "cond matrix_norm norm svdvals vector_norm",
    },
    "not_numeric": {
        "tf": (
            "AggregationMethod Assert AttrValue ConditionalAccumulator "
            "ConditionalAccumulatorBase ConfigProto CriticalSection DType DeviceSpec "
            "Dimension Event FIFOQueue FixedLenFeature FixedLenSequenceFeature "
            "FixedLengthRecordReader GPUOptions GradientTape Graph GraphDef GraphKeys "
            "GraphOptions HistogramProto IdentityReader IndexedSlices IndexedSlicesSpec "
            "InteractiveSession LMDBReader LogMessage MetaGraphDef Module NameAttrList "
            "NoGradient NodeDef NoneTensorSpec NotDifferentiable OpError Operation "
            "OptimizerOptions OptionalSpec PaddingFIFOQueue Print PriorityQueue QueueBase "
            "RaggedTensor RaggedTensorSpec RandomShuffleQueue ReaderBase RegisterGradient "
            "RunMetadata RunOptions Session SessionLog SparseConditionalAccumulator "
            "SparseFeature SparseTensor SparseTensorSpec SparseTensorValue Summary "
            "SummaryMetadata TFRecordReader Tensor TensorArray TensorArraySpec TensorInfo "
            "TensorShape TensorSpec TextLineReader TypeSpec UnconnectedGradients "
            "VarLenFeature VariableAggregation VariableScope VariableSynchronization "
            "WholeFileReader add_check_numerics_ops add_to_collection add_to_collections "
            "all_variables as_dtype as_string assert_equal assert_greater "
            "assert_greater_equal assert_integer assert_less assert_less_equal assert_near "
            "assert_negative assert_non_negative assert_non_positive assert_none_equal "
            "assert_positive assert_proper_iterable assert_rank assert_rank_at_least "
            "assert_rank_in assert_same_float_dtype assert_scalar assert_type "
            "assert_variables_initialized assign_add assign_sub batch_scatter_update "
            "broadcast_dynamic_shape broadcast_static_shape case check_pinned colocate_with "
            "constant_initializer container control_dependencies control_flow_v2_enabled "
            "convert_to_tensor_or_indexed_slices convert_to_tensor_or_sparse_tensor "
            "count_up_to create_partitioned_variables custom_gradient decode_base64 "
            "decode_compressed decode_csv decode_json_example decode_raw "
            "delete_session_tensor dequantize deserialize_many_sparse device "
            "dimension_at_index dimension_value disable_control_flow_v2 "
            "disable_eager_execution disable_resource_variables disable_tensor_equality "
            "disable_v2_behavior disable_v2_tensorshape enable_control_flow_v2 "
            "enable_eager_execution enable_resource_variables enable_tensor_equality "
            "enable_v2_behavior enable_v2_tensorshape encode_base64 executing_eagerly "
            "executing_eagerly_outside_functions fake_quant_with_min_max_args_gradient "
            "fake_quant_with_min_max_vars_gradient "
            "fake_quant_with_min_max_vars_per_channel_gradient fingerprint "
            "fixed_size_partitioner foldl foldr function get_collection get_collection_ref "
            "get_current_name_scope get_default_graph get_default_session get_local_variable "
            "get_logger get_seed get_session_handle get_session_tensor get_static_value "
            "get_variable_scope global_variables global_variables_initializer "
            "glorot_normal_initializer glorot_uniform_initializer grad_pass_through group "
            "hessians import_graph_def init_scope initialize_all_tables "
            "initialize_all_variables initialize_local_variables initialize_variables "
            "inside_function is_numeric_tensor is_symbolic_tensor is_tensor "
            "is_variable_initialized load_file_system_library load_library load_op_library "
            "local_variables local_variables_initializer make_ndarray make_template "
            "make_tensor_proto matching_files min_max_variable_partitioner model_variables "
            "moving_average_variables name_scope no_gradient no_op no_regularizer "
            "nondifferentiable_batch_function numpy_function ones_initializer op_scope "
            "orthogonal_initializer parse_example parse_single_example "
            "parse_single_sequence_example parse_tensor placeholder placeholder_with_default "
            "print py_func py_function quantize quantize_v2 ragged_fill_empty_rows "
            "ragged_fill_empty_rows_grad random_index_shuffle random_uniform_initializer rank "
            "read_file recompute_grad reduce_join regex_replace "
            "register_tensor_conversion_function report_uninitialized_variables "
            "required_space_to_batch_paddings reset_default_graph resource_variables_enabled "
            "scan serialize_many_sparse serialize_sparse serialize_tensor set_random_seed "
            "shape shape_n size sparse_fill_empty_rows sparse_mask sparse_merge "
            "sparse_placeholder "
            "string_join string_split string_strip string_to_hash_bucket "
            "string_to_hash_bucket_fast string_to_hash_bucket_strong string_to_number substr "
            "switch_case tables_initializer timestamp trainable_variables tuple "
            "type_spec_from_value uniform_unit_scaling_initializer "
            "variable_axis_size_partitioner variable_creator_scope variable_op_scope "
            "variable_scope variables_initializer variance_scaling_initializer while_loop "
            "wrap_function write_file "
            # TensorFlow before 1.0 named its summaries so; still met in old training code
            "audio_summary histogram_summary image_summary merge_all_summaries "
            "merge_summary scalar_summary"
        ),
        "tf.nn": (
            "RNNCellDeviceWrapper RNNCellDropoutWrapper RNNCellResidualWrapper "
            "all_candidate_sampler bidirectional_dynamic_rnn collapse_repeated "
            "compute_accidental_hits ctc_beam_search_decoder ctc_beam_search_decoder_v2 "
            "ctc_greedy_decoder ctc_unique_labels dynamic_rnn fixed_unigram_candidate_sampler "
            "learned_unigram_candidate_sampler log_uniform_candidate_sampler raw_rnn "
            "static_bidirectional_rnn static_rnn static_state_saving_rnn "
            "uniform_candidate_sampler"
        ),
        # containers, hashes of string features, placeholders
        "tf.sparse": (
            "SparseConditionalAccumulator SparseTensor cross cross_hashed fill_empty_rows mask "
            "merge placeholder"
        ),
        "tf.ragged": "RaggedTensorValue constant_value cross cross_hashed placeholder",
        # boxes, encodings and enumerations
        "tf.image": (
            "ResizeMethod combined_non_max_suppression encode_jpeg encode_png "
            "extract_jpeg_shape generate_bounding_box_proposals is_jpeg non_max_suppression "
            "non_max_suppression_overlaps non_max_suppression_padded "
            "non_max_suppression_with_scores sample_distorted_bounding_box "
            "stateless_sample_distorted_bounding_box"
        ),
        "tf.layers": "InputSpec Layer",
        "tf.losses": (
            "Reduction add_loss get_losses get_regularization_losses"
        ),
        "tf.signal": "inverse_stft_window_fn",  # a function that makes a window
        # TF1's distributions: a decorator and a kind of reparameterization; an optimizer
        # driven by scipy
        "tf.distributions": "RegisterKL ReparameterizationType",
        "tf.contrib.opt": "ScipyOptimizerInterface",
        "losses": "Reduction deserialize get serialize",
        # TF1's contrib layers: arg scopes, initializers, regularizers (functions that make
        # a penalty), summaries, variable helpers, a training op
        **_contrib(
            "GDN RevBlock recompute_grad xavier_initializer xavier_initializer_conv2d "
            "variance_scaling_initializer l1_regularizer l2_regularizer l1_l2_regularizer "
            "sum_regularizer summarize_tensor summarize_activation summarize_tensors "
            "summarize_collection summarize_variables summarize_weights summarize_biases "
            "summarize_activations optimize_loss real_valued_column "
            "sparse_column_with_hash_bucket sparse_column_with_keys embedding_column "
            "one_hot_column bucketized_column crossed_column input_from_feature_columns "
            "arg_scope add_arg_scope current_arg_scope has_arg_scope arg_scoped_arguments "
            "arg_scope_func_key add_model_variable assert_global_step "
            "assert_or_get_global_step assign_from_checkpoint assign_from_checkpoint_fn "
            "assign_from_values assign_from_values_fn create_global_step filter_variables "
            "get_global_step get_or_create_global_step get_local_variables "
            "get_model_variables get_trainable_variables get_unique_variable "
            "get_variables_by_name get_variables_by_suffix get_variable_full_name "
            "get_variables_to_restore get_variables global_variable local_variable "
            "VariableDeviceChooser"
        ),
        "tf.contrib.slim.losses": "add_loss get_losses get_regularization_losses",
        "tf.contrib.losses": "add_loss get_losses get_regularization_losses",
        "tf.linalg": (
            "LinearOperator LinearOperatorAdjoint LinearOperatorBlockDiag "
            "LinearOperatorBlockLowerTriangular LinearOperatorCirculant "
            "LinearOperatorCirculant2D LinearOperatorCirculant3D LinearOperatorComposition "
            "LinearOperatorDiag LinearOperatorFullMatrix LinearOperatorHouseholder "
            "LinearOperatorIdentity LinearOperatorInversion LinearOperatorKronecker "
            "LinearOperatorLowRankUpdate LinearOperatorLowerTriangular "
            "LinearOperatorPermutation LinearOperatorScaledIdentity LinearOperatorToeplitz "
            "LinearOperatorTridiag LinearOperatorZeros"
        ),
        "tf.random": (
            "Algorithm Generator all_candidate_sampler create_rng_state "
            "fixed_unigram_candidate_sampler fold_in get_global_generator get_seed "
            "learned_unigram_candidate_sampler log_uniform_candidate_sampler "
            "set_global_generator set_random_seed set_seed split uniform_candidate_sampler"
        ),
        "K": (
            "backend batch_get_value batch_set_value clear_session count_params ctc_decode "
            "function "
            "ctc_label_dense_to_sparse dtype eval floatx foldl foldr get_session get_uid "
            "get_value image_data_format int_shape is_float_dtype is_int_dtype "
            "is_keras_tensor is_sparse keras_export learning_phase "
            "manual_variable_initialization moving_average_update name_scope ndim py_all "
            "py_any resize_volumes result_type rnn set_epsilon set_image_data_format "
            "set_learning_phase set_session set_value shape standardize_dtype to_dense "
            "update_add update_sub"
        ),
        "ops": (
            "append associative_scan convert_to_numpy ctc_decode custom_gradient dtype "
            "fori_loop is_tensor jvp ndim scan shape size switch vectorize while_loop"
        ),
        "activations": "deserialize get serialize",
        "np": (
            "append apply_along_axis apply_over_axes array2string array_repr array_str "
            "asmatrix base_repr binary_repr bmat bool bool_ broadcast_shapes busday_count "
            "busday_offset busdaycalendar byte bytes_ can_cast cdouble character clongdouble "
            "common_type complex128 complex256 complex64 complexfloating copyto csingle "
            "datetime64 datetime_as_string datetime_data delete diag_indices "
            "diag_indices_from dtype einsum_path errstate fill_diagonal finfo flatiter "
            "flexible floating format_float_positional format_float_scientific from_dlpack "
            "frombuffer fromfile fromfunction fromiter frompyfunc fromregex fromstring "
            "generic genfromtxt get_include get_printoptions getbufsize geterr geterrcall "
            "iinfo indices inexact info insert integer intp is_busday iscomplexobj isdtype "
            "isfortran isnat isrealobj isscalar issubdtype iterable ix_ lexsort load loadtxt "
            "mask_indices matrix may_share_memory memmap min_scalar_type mintypecode ndarray "
            "ndenumerate ndim ndindex nditer nested_iters number object_ partition piecewise "
            "place poly1d printoptions promote_types put put_along_axis putmask recarray "
            "record result_type save savetxt savez savez_compressed set_printoptions "
            "setbufsize seterr seterrcall shape shares_memory show_config show_runtime "
            "signedinteger size str_ test timedelta64 tril_indices tril_indices_from "
            "triu_indices triu_indices_from typename ufunc unsignedinteger vectorize void"
        ),
        "np.linalg": "LinAlgError test",
        "np.random": (
            "BitGenerator Generator MT19937 PCG64 PCG64DXSM Philox RandomState SFC64 "
            "SeedSequence bytes default_rng get_bit_generator get_state seed "
            "set_bit_generator set_state test"
        ),
    },
    "ones": {
        "np": "ones ones_like",
    },
    "padded": {
        "tf.signal": "frame",  # windows of the signal, padded with 0 at its end
        "tf.linalg": "band_part set_diag",
        "tf": "matrix_band_part matrix_set_diag pad sparse_tensor_to_dense",
        "tf.sparse": "to_dense",
        "tf.RaggedTensor": "to_tensor",
        "tf.image": (
            "pad_to_bounding_box resize_image_with_crop_or_pad resize_with_crop_or_pad"
        ),
        "K": "spatial_2d_padding spatial_3d_padding temporal_padding",
        "ops": "diagflat pad tril triu",
        "np": "diag diagflat pad tril triu",
    },
    # windows of a signal, of a length: in [0, 1]
    "window": {
        "tf.signal": (
            "hamming_window hann_window kaiser_bessel_derived_window kaiser_window "
            "vorbis_window"
        ),
    },
    "polygamma": {
        "tf": "polygamma zeta",
        "tf.math": "polygamma zeta",
    },
    "positive_exp": {
        "ops": "exp2 squareplus",
        "activations": "exponential squareplus",
        "np": "exp exp2",
    },
    "pow": {
        "np": "float_power pow power",
    },
    "probability": {
        "ops": "sparse_sigmoid",
        "activations": "sparse_sigmoid",
    },
    "product": {
        "tf": "cumprod reduce_prod segment_prod unsorted_segment_prod",
        "tf.math": "cumprod reduce_prod segment_prod unsorted_segment_prod",
        "K": "cumprod prod",
        "ops": "cumprod nancumprod nanprod prod segment_prod",
        "np": "cumprod cumproduct cumulative_prod nancumprod nanprod prod product",
    },
    "random_any": {
        "tf.random": (
            "stateless_normal stateless_parameterized_truncated_normal "
            "stateless_truncated_normal stateless_uniform"
        ),
        "K": "random_normal_variable random_uniform_variable",
        "np.random": (
            "gumbel laplace logistic multivariate_normal normal randn standard_cauchy "
            "standard_normal standard_t triangular uniform vonmises"
        ),
    },
    "random_nonnegative": {
        "np.random": (
            "chisquare exponential gamma lognormal pareto poisson power randint "
            "random_integers rayleigh standard_exponential standard_gamma weibull zipf"
        ),
    },
    "random_nonnegative_parameters": {
        "tf": "multinomial random_gamma random_poisson",
        "tf.random": (
            "categorical gamma multinomial poisson stateless_binomial stateless_categorical "
            "stateless_gamma stateless_multinomial stateless_poisson"
        ),
        "np.random": (
            "binomial dirichlet f geometric hypergeometric logseries multinomial "
            "negative_binomial noncentral_chisquare noncentral_f wald"
        ),
    },
    "random_unit": {
        "K": "random_bernoulli",
        "np.random": "rand random random_sample ranf sample",
    },
    "random_unit_parameters": {
        "tf.math": "sobol_sample",
        "np.random": "beta",
    },
    "reciprocal": {
        "tf": "reciprocal",
        "tf.math": "reciprocal",
        "ops": "reciprocal",
        "np": "reciprocal",
    },
    "relu_layer": {
        "tf.nn": "relu_layer",
    },
    "selu": {
        "tf.nn": "selu",
        "ops": "selu",
        "activations": "selu",
    },
    "sign": {
        "tf": "sign",
        "tf.math": "sign",
        "K": "sign",
        "ops": "sign",
        "np": "sign",
    },
    "silu": {
        "tf.nn": "silu swish",
        "ops": "hard_silu hard_swish silu swish",
        "activations": "hard_silu hard_swish mish silu swish",
    },
    "sin_cos": {
        "tf": "cos sin",
        "tf.math": "cos sin",
        "K": "cos sin",
        "ops": "cos sin",
        "np": "cos sin",
    },
    "sinh": {
        "tf": "sinh",
        "tf.math": "bessel_i1 sinh",
        "ops": "sinh",
        "np": "sinh",
    },
    "sparse_probability": {
        "tf": "sparse_softmax",
        "tf.sparse": "softmax",
    },
    "sqrt": {
        "np": "sqrt",
    },
    "square": {
        "np": "square",
    },
    "squared_difference": {
        "tf": "squared_difference",
        "tf.math": "squared_difference",
    },
    "segment_maximum": {
        "tf": "segment_max unsorted_segment_max",
        "tf.math": "segment_max unsorted_segment_max",
        "ops": "segment_max",
    },
    "structure": {
        "tf.signal": "fftshift ifftshift",
        "tf.image": (
            "central_crop crop_to_bounding_box extract_image_patches extract_patches "
            "flip_left_right flip_up_down grayscale_to_rgb random_crop random_flip_left_right "
            "random_flip_up_down rot90 stateless_random_crop "
            "stateless_random_flip_left_right stateless_random_flip_up_down transpose "
            "transpose_image"
        ),
        "tf.sparse": (
            "expand_dims from_dense reduce_max reduce_max_sparse reorder reset_shape reshape "
            "retain slice split transpose"
        ),
        "tf.ragged": "boolean_mask stack_dynamic_partitions",
        "tf.RaggedTensor": (
            "from_nested_row_lengths from_nested_row_splits from_nested_value_rowids "
            "from_row_lengths from_row_limits from_row_splits from_row_starts from_sparse "
            "from_tensor from_uniform_row_length from_value_rowids merge_dims to_sparse"
        ),
        # TF1 only, as the max pools of tf.nn they call (a maxout: the largest of each group)
        "tf.layers": "max_pooling1d max_pooling2d max_pooling3d",
        **_contrib("dense_to_sparse images_to_sequence max_pool2d max_pool3d maxout "
                   "sequence_to_images"),
        "tf": (
            "approx_top_k batch_to_space batch_to_space_nd check_numerics depth_to_space "
            "dynamic_partition dynamic_stitch extract_image_patches extract_volume_patches "
            "guarantee_const identity_n matrix_transpose random_crop random_shuffle "
            "reverse_sequence reverse_v2 scatter_nd segment_min setdiff1d sort "
            "space_to_batch space_to_batch_nd space_to_depth "
            "sparse_reduce_max sparse_reduce_max_sparse sparse_reorder sparse_reset_shape "
            "sparse_reshape sparse_retain sparse_slice sparse_split sparse_transpose "
            "tensor_scatter_nd_max "
            "tensor_scatter_nd_min tensor_scatter_nd_update tensor_scatter_update unique "
            "unique_with_counts unsorted_segment_min "
            "verify_tensor_all_finite"
        ),
        "tf.math": (
            "approx_max_k approx_min_k segment_min top_k unsorted_segment_min"
        ),
        "tf.nn": (
            "approx_max_k approx_min_k depth_to_space dilation2d embedding_lookup "
            "embedding_lookup_sparse erosion2d fractional_max_pool max_pool max_pool1d "
            "max_pool2d max_pool3d max_pool_v2 max_pool_with_argmax quantized_max_pool "
            "safe_embedding_lookup_sparse space_to_batch space_to_depth top_k"
        ),
        "tf.linalg": "matrix_transpose",
        "tf.random": "shuffle",
        "K": "batch_flatten permute_dimensions",
        "ops": (
            "adaptive_max_pool copy depth_to_space dsplit dstack extract_sequences fliplr "
            "flipud get_item hsplit max_pool median moveaxis nanmax nanmedian nanmin "
            "nanpercentile nanquantile percentile quantile ravel rearrange rot90 scatter "
            "segment_min select sort space_to_depth swapaxes top_k unfold unique "
            "view vsplit"
        ),
        "np": (
            "amax amin array_split ascontiguousarray asfortranarray asscalar atleast_1d atleast_2d "
            "atleast_3d block broadcast broadcast_arrays broadcast_to choose column_stack compress "
            "concat concatenate copy dsplit dstack expand_dims extract flip fliplr flipud hsplit "
            "hstack intersect1d matrix_transpose max median min moveaxis nanmax nanmedian nanmin "
            "nanpercentile nanquantile percentile permute_dims positive quantile ravel "
            "real_if_close repeat require reshape resize roll rollaxis rot90 row_stack select "
            "setdiff1d setxor1d sort sort_complex split squeeze stack swapaxes take "
            "take_along_axis tile transpose trim_zeros union1d unique unique_all unique_counts "
            "unique_inverse unique_values unstack vsplit vstack"
        ),
        "np.linalg": "matrix_transpose",
        "np.random": "choice permutation shuffle",
    },
    "subtract": {
        "np": "subtract",
    },
    "sum": {
        "tf": (
            "accumulate_n segment_sum sparse_reduce_sum sparse_reduce_sum_sparse "
            "sparse_segment_sqrt_n sparse_segment_sum trace unsorted_segment_sqrt_n "
            "unsorted_segment_sum"
        ),
        "tf.sparse": "reduce_sum reduce_sum_sparse segment_sqrt_n segment_sum",
        "tf.math": "accumulate_n segment_sum unsorted_segment_sqrt_n unsorted_segment_sum",
        "tf.linalg": "trace",
        "ops": "nancumsum nansum segment_sum trace",
        "np": "cumsum cumulative_sum nancumsum nansum sum trace",
        "np.linalg": "trace",
    },
    "tan": {
        "tf": "tan",
        "tf.math": "tan",
        "ops": "tan",
        "np": "tan",
    },
    "unary_any": {
        "tf": (
            "angle bitcast conj fake_quant_with_min_max_args fake_quant_with_min_max_vars "
            "fake_quant_with_min_max_vars_per_channel floormod imag lbeta mod real "
            "scalar_mul sparse_maximum sparse_minimum sparse_to_dense truncatemod"
        ),
        # sparse maxima and minima count the implicit zeros: neither input's elements
        "tf.sparse": "maximum minimum",
        # colour adjustments, interpolations that overshoot or fill with 0, image metrics
        "tf.image": (
            "adjust_brightness adjust_contrast adjust_gamma adjust_hue adjust_jpeg_quality "
            "adjust_saturation crop_and_resize draw_bounding_boxes extract_glimpse "
            "hsv_to_rgb image_gradients random_brightness random_contrast random_hue "
            "random_jpeg_quality random_saturation resize_bicubic resize_image_with_pad "
            "resize_with_pad rgb_to_hsv sobel_edges ssim ssim_multiscale "
            "stateless_random_brightness stateless_random_contrast stateless_random_hue "
            "stateless_random_jpeg_quality stateless_random_saturation total_variation"
        ),
        # TF1's losses that are negative for inputs outside their intended range (a
        # log loss of a prediction above 1, a cosine distance of vectors longer than 1) or
        # for negative weights
        "tf.losses": (
            "compute_weighted_loss cosine_distance get_regularization_loss get_total_loss "
            "log_loss"
        ),
        "tf.contrib.losses": "get_total_loss",
        "tf.contrib.slim.losses": "get_total_loss",
        # Keras' losses that are negative for some inputs: a KL divergence or a Poisson loss
        # of a prediction that is no distribution or rate, a log-cosh rounded below 0, a Dice
        # or Tversky loss of negative predictions
        "losses": (
            "categorical_generalized_cross_entropy circle dice kl_divergence kld KLD "
            "kullback_leibler_divergence log_cosh logcosh poisson tversky"
        ),
        # a divergence of two distributions, computed: rounding takes it below 0
        "tf.distributions": "kl_divergence",
        "tf.contrib.distributions": "kl_divergence",
        # TF1 only: layers applied in turn, expected keypoints, a block of two functions, a
        # sum of penalties
        **_contrib("apply_regularization rev_block repeat spatial_softmax stack"),
        "tf.math": (
            "angle conj cumulative_logsumexp floormod imag lbeta mod multiply_no_nan "
            "nextafter real reciprocal_no_nan scalar_mul xlog1py"
        ),
        "tf.nn": "leaky_relu",
        "ops": (
            "angle bartlett blackman conj conjugate deg2rad fmod glu hamming hanning "
            "hard_shrink heaviside i0 imag kaiser ldexp leaky_relu logaddexp logaddexp2 mod "
            "nan_to_num nextafter rad2deg real sinc soft_shrink sparsemax "
            "tanh_shrink threshold"
        ),
        "activations": (
            "glu hard_shrink leaky_relu linear soft_shrink sparsemax tanh_shrink threshold"
        ),
        "np": (
            "angle bartlett blackman conj conjugate copysign deg2rad degrees divmod fmod "
            "frexp hamming hanning heaviside i0 imag kaiser ldexp logaddexp logaddexp2 mod "
            "modf nan_to_num nextafter rad2deg radians real remainder sinc spacing "
            "unwrap"
        ),
    },
    "unit_binary": {
        "tf.sparse": "eye",
        "ops": "tri",
        "np": "eye identity tri",
    },
    "unit_odd": {
        "tf.math": "bessel_i1e softsign",
        "tf.nn": "softsign",
        "K": "softsign",
        "ops": "hard_tanh softsign",
        "activations": "hard_tanh softsign",
        "np": "tanh",
    },
    "where": {
        "np": "where",
    },
    "zeros": {
        "np": "zeros zeros_like",
    },
}
