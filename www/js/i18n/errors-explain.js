// Errors of the explanations (ExplainError, src/explain/error.rs) in Chinese: why a cell
// cannot be explained, said from its code and params (errorText in i18n.js); {name} is a
// param. The English is the core's MESSAGES, generated when the site is built
// (errors.gen.js, tools/error-tables.mjs, which checks this table against it).

export const zh = {
  'err.explain.unknown_kind': '没有叫“{name}”的矩阵：请用 q、k、v、scores、masked_scores、weights 或 out',
  'err.explain.unknown_scheme': '没有叫“{name}”的方案：请用 loop、matrix 或 softmax',
  'err.explain.unknown_grid': '没有叫“{name}”的网格：请用 masked_before、masked_after、unmasked_before 或 unmasked_after',
  'err.explain.out_of_range': '{matrix} 是 {rows}×{cols} 的矩阵：没有格子 ({row}, {col})',
  'err.explain.not_in_scheme': '{scheme} 方案里没有 {matrix} 矩阵',
  'err.explain.no_projection': '这里无法解释 {matrix}：不知道这个头的输入和权重',
  'err.explain.not_here.head': '注意力头里没有可以解释的 {matrix} 矩阵',
  'err.explain.not_here.probe': '头部探针里没有可以解释的 {matrix} 矩阵',
  'err.explain.not_here.normalise': '归一化组件里没有可以解释的 {matrix} 矩阵',
  'err.explain.not_here.position': '位置编码表里没有可以解释的 {matrix} 矩阵',
  'err.explain.not_here.exercise': '这道练习里没有可以解释的 {matrix} 矩阵',
  'err.explain.not_here.wrong_axis': '“轴选错了”练习里没有可以解释的 {matrix} 矩阵',
  'err.explain.shape.head_size': 'q 有 {d} 列，而 k 有 {d_k} 列：q 和 k 的头维度必须相同',
  'err.explain.shape.values': 'k 有 {t_in} 行，而 v 有 {t_v} 行',
  'err.explain.shape.mask': '掩码是 {rows}×{cols}，而分数是 {t_out}×{t_in}',
  'err.explain.shape.projection': '{x}（{t}×{c}）乘以 {w}ᵀ（{d}×{c_w}）得不到 {rows}×{cols} 的矩阵',
  'err.explain.shape.drawn': '存下的 masked_scores、weights 和 out 的形状是 {got}，应为 {want}',
  'err.explain.shape.window': '从偏移 {offset} 开始、行步长为 {stride} 的 {rows}×{cols} 窗口超出了这 {len} 个数',
  'err.explain.shape.keepdim_square': 'keepdim 陷阱需要方阵，而这是 {rows}×{cols}',
  'err.explain.shape.size': '{name} 必须在 1 到 {max} 之间，现在是 {n}',
  'err.explain.shape.no_batch': '只有 {b} 个批次：没有批次 {batch}',
  'err.explain.zero_sum.row': 'A 的第 {i} 行之和为 0：这个矩阵没有画出来',
  'err.explain.zero_sum.column': 'A 的第 {i} 列之和为 0：这个矩阵没有画出来',
  'err.explain.zero_sum.all': 'A 的所有元素之和为 0：这个矩阵没有画出来',
};
