<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>DesktopMenus</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>The new language is used the next time mhaviz starts.</source>
        <translation>新的语言将在下次启动 mhaviz 时生效。</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>跟随系统语言(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
</context>
<context>
    <name>ModelPicture</name>
    <message>
        <source>%1 — %2 attention layers, batch element %3</source>
        <translation>%1 — %2 个注意力层，批次元素 %3</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>Weight on appended bias_k / zero columns (dropped) per layer: %1</source>
        <translation>各层在附加的 bias_k / 零列（已舍去）上的权重：%1</translation>
    </message>
    <message>
        <source>per input token: mean over rows (brightest = %1)</source>
        <translation>每个输入词元：按行取平均（最亮 = %1）</translation>
    </message>
    <message>
        <source>%1: cannot encode the picture (%2)</source>
        <translation>%1：无法编码图片（%2）</translation>
    </message>
    <message>
        <source>; layers differing from PyTorch: %1</source>
        <translation>；与 PyTorch 不一致的层数：%1</translation>
    </message>
    <message>
        <source>Attention rollout over the self-attention layers %1, batch element %2</source>
        <translation>自注意力层 %1 上的注意力展开（rollout），批次元素 %2</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>rollout</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Attention flow (maximum flow, rows normalised) over the self-attention layers %1, batch element %2</source>
        <translation>自注意力层 %1 上的注意力流（最大流，按行归一化），批次元素 %2</translation>
    </message>
    <message>
        <source>flow</source>
        <translation>流</translation>
    </message>
    <message>
        <source>matches PyTorch (largest difference %1)</source>
        <translation>与 PyTorch 一致（最大差异 %1）</translation>
    </message>
    <message>
        <source>DIFFERS from PyTorch by %1</source>
        <translation>与 PyTorch 不一致，差异 %1</translation>
    </message>
    <message>
        <source>query ↓ (rows)</source>
        <translation>查询 ↓（行）</translation>
    </message>
    <message>
        <source>key → (columns)</source>
        <translation>键 →（列）</translation>
    </message>
    <message>
        <source>stored weights (weights-only file)</source>
        <translation>存储的权重（仅权重文件）</translation>
    </message>
    <message>
        <source>head %1 · kv %2</source>
        <translation>头 %1 · kv %2</translation>
    </message>
    <message>
        <source>%1: cannot draw the SVG picture</source>
        <translation>%1：无法绘制 SVG 图片</translation>
    </message>
    <message>
        <source>, call %1</source>
        <translation>，第 %1 次调用</translation>
    </message>
    <message>
        <source>, step %1</source>
        <translation>，第 %1 步</translation>
    </message>
    <message>
        <source>layer %1 (%2)</source>
        <translation>第 %1 层（%2）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>key bias_k (appended by add_bias_kv)</source>
        <translation>键 bias_k（由 add_bias_kv 追加）</translation>
    </message>
    <message>
        <source>key zero (all-zero key appended by add_zero_attn)</source>
        <translation>键 zero（由 add_zero_attn 追加的全零键）</translation>
    </message>
    <message>
        <source>key %1 “%2”</source>
        <translation>键 %1“%2”</translation>
    </message>
    <message>
        <source>key %1</source>
        <translation>键 %1</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the SVG file could not be opened for writing</source>
        <translation>无法写入“%1”：无法打开该 SVG 文件进行写入</translation>
    </message>
    <message>
        <source>cannot export to &apos;%1&apos;: unknown image type &apos;%2&apos;; use a file name ending in .png, .svg or .pdf</source>
        <translation>无法导出到“%1”：未知的图像类型“%2”；请使用以 .png、.svg 或 .pdf 结尾的文件名</translation>
    </message>
    <message>
        <source>(no extension)</source>
        <translation>（无扩展名）</translation>
    </message>
    <message>
        <source>cannot export a %1x%2 picture: width and height must be between 16 and %3 pixels</source>
        <translation>无法导出 %1x%2 的图片：宽度和高度必须在 16 到 %3 像素之间</translation>
    </message>
    <message>
        <source>cannot export with scale %1: use a scale between 0.1 and 10</source>
        <translation>无法以缩放比例 %1 导出：请使用 0.1 到 10 之间的缩放比例</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the folder &apos;%2&apos; does not exist; create it or choose another folder</source>
        <translation>无法写入“%1”：文件夹“%2”不存在；请创建该文件夹或选择其他文件夹</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: %2; choose a writable location</source>
        <translation>无法写入“%1”：%2；请选择可写的位置</translation>
    </message>
    <message>
        <source>image export needs a QApplication (run with a display or QT_QPA_PLATFORM=offscreen)</source>
        <translation>图像导出需要 QApplication（请在有显示器的环境下运行，或设置 QT_QPA_PLATFORM=offscreen）</translation>
    </message>
    <message>
        <source>, head %1</source>
        <translation>，头 %1</translation>
    </message>
    <message>
        <source>nothing to export: %1</source>
        <translation>没有可导出的内容：%1</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the %2 file could not be written (disk full or no permission?)</source>
        <translation>无法写入“%1”：无法写入该 %2 文件（磁盘已满或没有权限？）</translation>
    </message>
    <message>
        <source>export to &apos;%1&apos; failed: %2</source>
        <translation>导出到“%1”失败：%2</translation>
    </message>
    <message>
        <source>About mhaviz</source>
        <translation>关于 mhaviz</translation>
    </message>
    <message>
        <source>&lt;h3&gt;mhaviz %1&lt;/h3&gt;&lt;p&gt;A multi-head attention visualiser: it computes exactly what PyTorch&apos;s &lt;code&gt;nn.MultiheadAttention&lt;/code&gt; computes, keeps every intermediate and draws one heatmap per head, including the extra key columns of &lt;code&gt;add_bias_kv&lt;/code&gt; (bias_k) and &lt;code&gt;add_zero_attn&lt;/code&gt; (zero).&lt;/p&gt;&lt;p&gt;Hover over a cell for its head, query, key and value; the mouse wheel zooms a map. Every parameter change can be undone (Ctrl+Z).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;mhaviz %1&lt;/h3&gt;&lt;p&gt;多头注意力可视化工具：它与 PyTorch 的 &lt;code&gt;nn.MultiheadAttention&lt;/code&gt; 进行完全相同的计算，保留每一个中间结果，并为每个头绘制一张热力图，包括 &lt;code&gt;add_bias_kv&lt;/code&gt;（bias_k）和 &lt;code&gt;add_zero_attn&lt;/code&gt;（zero）追加的额外键列。&lt;/p&gt;&lt;p&gt;将鼠标悬停在单元格上可查看其头、查询、键和值；鼠标滚轮可缩放热力图。每次参数修改都可以撤销（Ctrl+Z）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>因果</translation>
    </message>
    <message>
        <source>sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>band</source>
        <translation>带状</translation>
    </message>
    <message>
        <source>block diagonal</source>
        <translation>块对角</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>custom (edit the grid)</source>
        <translation>自定义（在网格中编辑）</translation>
    </message>
    <message>
        <source>ALiBi bias (per head)</source>
        <translation>ALiBi 偏置（每个头）</translation>
    </message>
    <message>
        <source>graph bias (per head)</source>
        <translation>图偏置（每个头）</translation>
    </message>
    <message>
        <source>Masks and inputs</source>
        <translation>掩码与输入</translation>
    </message>
    <message>
        <source>mhaviz session (*.mhaviz.json);;JSON (*.json)</source>
        <translation>mhaviz 会话 (*.mhaviz.json);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save the changes to %1 before continuing?</source>
        <translation>继续之前是否保存对 %1 的更改？</translation>
    </message>
    <message>
        <source>Recover unsaved work</source>
        <translation>恢复未保存的工作</translation>
    </message>
    <message>
        <source>Recover unsaved work from %1?</source>
        <translation>是否恢复 %1 中未保存的工作？</translation>
    </message>
    <message>
        <source>mhaviz did not close normally last time.</source>
        <translation>mhaviz 上次没有正常关闭。</translation>
    </message>
    <message>
        <source>&amp;Recover</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>丢弃(&amp;D)</translation>
    </message>
    <message>
        <source>dropout=%1 (training)</source>
        <translation>dropout=%1（训练模式）</translation>
    </message>
    <message>
        <source>, batch %1</source>
        <translation>，批次 %1</translation>
    </message>
    <message>
        <source>, unbatched</source>
        <translation>，无批次维度</translation>
    </message>
    <message>
        <source>prefix-LM</source>
        <translation>前缀语言模型 (prefix-LM)</translation>
    </message>
    <message>
        <source>documents (packed sequences)</source>
        <translation>文档（打包序列）</translation>
    </message>
    <message>
        <source>dilated sliding window</source>
        <translation>空洞滑动窗口</translation>
    </message>
    <message>
        <source>attention sink + window (StreamingLLM)</source>
        <translation>注意力汇点 + 窗口 (StreamingLLM)</translation>
    </message>
    <message>
        <source>Compare: A | B | B − A</source>
        <translation>对比：A | B | B − A</translation>
    </message>
    <message>
        <source>Co&amp;mpare</source>
        <translation>对比(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Pin current settings as A</source>
        <translation>将当前设置固定为 A(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Swap A and B</source>
        <translation>交换 A 和 B(&amp;S)</translation>
    </message>
    <message>
        <source>Make &amp;B the new A</source>
        <translation>将 B 作为新的 A(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Leave compare mode</source>
        <translation>退出对比模式(&amp;L)</translation>
    </message>
    <message>
        <source>The maps show batch element %1, whose padding the Masks dock edits</source>
        <translation>热图显示批次元素 %1，即“掩码与输入”面板正在编辑其填充的元素</translation>
    </message>
    <message>
        <source>Compare the model with a &amp;file…</source>
        <translation>将模型与文件对比(&amp;F)…</translation>
    </message>
    <message>
        <source>Compare the model open in the model view with another model file of the same layers, heads and lengths: A | B | B − A per layer and head</source>
        <translation>将模型视图中打开的模型与另一个层数、头数和长度都相同的模型文件对比：逐层逐头显示 A | B | B − A</translation>
    </message>
</context>
<context>
    <name>StepPicture</name>
    <message>
        <source>Generation step %1 (of 0 to %2), batch element %3: position %4</source>
        <translation>生成第 %1 步（共 0 至 %2 步），批次元素 %3：位置 %4</translation>
    </message>
    <message>
        <source> generates %1</source>
        <translation> 生成 %1</translation>
    </message>
    <message>
        <source>Each row: one head&apos;s weights from that position to the keys (appended bias_k / zero columns after the gap)</source>
        <translation>每行：一个头从该位置到各键的权重（附加的 bias_k / 零列在间隔之后）</translation>
    </message>
    <message>
        <source>Each row: one head&apos;s weights from that position to the keys</source>
        <translation>每行：一个头从该位置到各键的权重</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>%1 — most weight (mean over heads): %2, %3</source>
        <translation>%1 — 权重最大（各头平均）：%2，%3</translation>
    </message>
    <message>
        <source>appended column %1</source>
        <translation>附加列 %1</translation>
    </message>
</context>
<context>
    <name>TorchPathText</name>
    <message>
        <source>input not batched</source>
        <translation>输入不是批量的</translation>
    </message>
    <message>
        <source>query, key and value are not one tensor</source>
        <translation>query、key 和 value 不是同一个张量</translation>
    </message>
    <message>
        <source>kdim/vdim differ from embed_dim</source>
        <translation>kdim/vdim 与 embed_dim 不同</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练模式</translation>
    </message>
    <message>
        <source>num_heads is odd</source>
        <translation>num_heads 为奇数</translation>
    </message>
    <message>
        <source>batch_first=False</source>
        <translation>batch_first=False</translation>
    </message>
    <message>
        <source>add_bias_kv</source>
        <translation>add_bias_kv</translation>
    </message>
    <message>
        <source>add_zero_attn</source>
        <translation>add_zero_attn</translation>
    </message>
    <message>
        <source>a floating-point mask</source>
        <translation>浮点掩码</translation>
    </message>
    <message>
        <source>grad enabled</source>
        <translation>启用梯度</translation>
    </message>
    <message>
        <source>bias=False</source>
        <translation>bias=False</translation>
    </message>
    <message>
        <source>PyTorch 1.13&apos;s general path (semantics &quot;1.13&quot;; its fast path is not modelled)</source>
        <translation>PyTorch 1.13 的通用路径（语义“1.13”；不模拟其快速路径）</translation>
    </message>
    <message>
        <source>PyTorch would take the fast path: eval, %1, self-attention, batch_first</source>
        <translation>PyTorch 会走快速路径：eval、%1、自注意力、batch_first</translation>
    </message>
    <message>
        <source>PyTorch would take the SDPA path (scaled_dot_product_attention): need_weights=False, and not the fast path: %1</source>
        <translation>PyTorch 会走 SDPA 路径（scaled_dot_product_attention）：need_weights=False，且不走快速路径的原因：%1</translation>
    </message>
    <message>
        <source>PyTorch would take the general path: need_weights=True, and not the fast path: %1</source>
        <translation>PyTorch 会走通用路径：need_weights=True，且不走快速路径的原因：%1</translation>
    </message>
    <message>
        <source>is_causal=True but attn_mask is not causal: an incorrect hint, and PyTorch&apos;s result depends on its path (without key_padding_mask the SDPA path applies a causal mask instead, the general path applies the given mask, the fast path ignores the hint); mhaviz computes the %1 path&apos;s result</source>
        <translation>is_causal=True 但 attn_mask 不是因果掩码：这是错误的提示，PyTorch 的结果取决于它走的路径（没有 key_padding_mask 时 SDPA 路径改用因果掩码，通用路径使用给定的掩码，快速路径忽略该提示）；mhaviz 计算的是 %1 路径的结果</translation>
    </message>
    <message>
        <source>PyTorch&apos;s SDPA path drops attn_mask (is_causal=True, need_weights=False, no key_padding_mask) and applies its own top-left causal mask over all key columns, which hides the appended bias_k / zero key from every query before its column</source>
        <translation>PyTorch 的 SDPA 路径丢弃 attn_mask（is_causal=True、need_weights=False、无 key_padding_mask），改在所有键列上使用自己的左上因果掩码，这会对其列之前的每个查询隐藏追加的 bias_k / 零键</translation>
    </message>
    <message>
        <source>PyTorch&apos;s SDPA path drops attn_mask (is_causal=True, need_weights=False, no key_padding_mask) and applies its own top-left causal mask over all key columns</source>
        <translation>PyTorch 的 SDPA 路径丢弃 attn_mask（is_causal=True、need_weights=False、无 key_padding_mask），改在所有键列上使用自己的左上因果掩码</translation>
    </message>
    <message>
        <source>the capture recorded PyTorch&apos;s %1 path, but this configuration leads to the %2 path: its training, grad_mode or inputs.self_attention, or PyTorch&apos;s version, differs from the captured call&apos;s; mhaviz computes the %2 path&apos;s result</source>
        <translation>捕获记录的是 PyTorch 的 %1 路径，但此配置会走 %2 路径：它的 training、grad_mode 或 inputs.self_attention，或者 PyTorch 的版本，与捕获的调用不同；mhaviz 计算的是 %2 路径的结果</translation>
    </message>
</context>
<context>
    <name>mhaviz</name>
    <message>
        <source>Multi-head attention visualiser: what nn.MultiheadAttention computes, per head.</source>
        <translation>多头注意力可视化工具：逐头展示 nn.MultiheadAttention 的计算。</translation>
    </message>
    <message>
        <source>Start from this configuration file (JSON).</source>
        <translation>从此配置文件（JSON）开始。</translation>
    </message>
    <message>
        <source>Use these tensors (.npz/.safetensors with PyTorch&apos;s names).</source>
        <translation>使用这些张量（按 PyTorch 命名的 .npz/.safetensors 文件）。</translation>
    </message>
    <message>
        <source>Give one session file, or --config (and --tensors), not both.</source>
        <translation>请给出一个会话文件，或者 --config（以及 --tensors），不能同时给出。</translation>
    </message>
    <message>
        <source>cannot open the bundled example %1; the program was built without its resources</source>
        <translation>无法打开内置示例 %1；程序构建时没有包含其资源</translation>
    </message>
    <message>
        <source>A session (.mhaviz.json), configuration or model file, or attention weights (.npz, .safetensors).</source>
        <translation>会话 (.mhaviz.json)、配置或模型文件，或注意力权重 (.npz, .safetensors)。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui</name>
    <message>
        <source>Parameters: the in-projection</source>
        <translation>参数：输入投影</translation>
    </message>
    <message>
        <source>query, key and value are multiplied by the learned projection matrices. With kdim == vdim == embed_dim PyTorch packs them into one in_proj_weight of shape (3E, E): rows [0, E) are W_q, rows [E, 2E) are W_k and rows [2E, 3E) are W_v, the value projection. Head h uses rows [h*hd, (h+1)*hd) of each block, shown as one map per head slice. With other kdim/vdim the three matrices are separate.</source>
        <translation>query、key 和 value 分别乘以可学习的投影矩阵。当 kdim == vdim == embed_dim 时，PyTorch 把它们打包成一个形状为 (3E, E) 的 in_proj_weight：第 [0, E) 行是 W_q，第 [E, 2E) 行是 W_k，第 [2E, 3E) 行是值投影 W_v。头 h 使用每个块的第 [h*hd, (h+1)*hd) 行，每个头的切片显示为一张图。kdim/vdim 取其他值时，三个矩阵是分开的。</translation>
    </message>
    <message>
        <source>q: projected queries, split into heads</source>
        <translation>q：投影后的查询，拆分到各个头</translation>
    </message>
    <message>
        <source>Each query row is projected (x @ W_q.T + b_q) and its E features are cut into H heads of hd = E/H features: head h owns features [h*hd, (h+1)*hd). The map shows q for one head, one row per query, before the 1/sqrt(hd) scaling.</source>
        <translation>每个查询行经过投影（x @ W_q.T + b_q），其 E 个特征被切分成 H 个头，每个头 hd = E/H 个特征：头 h 拥有特征 [h*hd, (h+1)*hd)。图中显示一个头的 q，每个查询一行，尚未乘以 1/sqrt(hd)。</translation>
    </message>
    <message>
        <source>k: projected keys, with bias_k and the zero key</source>
        <translation>k：投影后的键，含 bias_k 和零键</translation>
    </message>
    <message>
        <source>v: projected values, with bias_v and the zero value</source>
        <translation>v：投影后的值，含 bias_v 和零值</translation>
    </message>
    <message>
        <source>k: projected keys, with bias_k</source>
        <translation>k：投影后的键，含 bias_k</translation>
    </message>
    <message>
        <source>k: projected keys, with the zero key</source>
        <translation>k：投影后的键，含零键</translation>
    </message>
    <message>
        <source>k: projected keys, split into heads</source>
        <translation>k：投影后的键，按头拆分</translation>
    </message>
    <message>
        <source>v: projected values, with bias_v</source>
        <translation>v：投影后的值，含 bias_v</translation>
    </message>
    <message>
        <source>v: projected values, with the zero value</source>
        <translation>v：投影后的值，含零值</translation>
    </message>
    <message>
        <source>v: projected values, split into heads</source>
        <translation>v：投影后的值，按头拆分</translation>
    </message>
    <message>
        <source>Values are projected with W_v (the third block of in_proj_weight) and split into heads. bias_v and the zero value are appended exactly where bias_k and the zero key are, so key column j always pairs with value row j.</source>
        <translation>值用 W_v（in_proj_weight 的第三个块）投影并拆分到各个头。bias_v 和零值追加的位置与 bias_k 和零键完全相同，因此键的第 j 列总是与值的第 j 行对应。</translation>
    </message>
    <message>
        <source>Raw scores: q k^T / sqrt(hd)</source>
        <translation>原始分数：q k^T / sqrt(hd)</translation>
    </message>
    <message>
        <source>Every query is compared with every key by a dot product, scaled by 1/sqrt(hd) so that the scores do not grow with the head size. Row i, column j is (q_i . k_j) / sqrt(hd). The zero key&apos;s raw score is exactly 0 for every query.</source>
        <translation>每个查询通过点积与每个键比较，并乘以 1/sqrt(hd)，使分数不随头的大小增长。第 i 行第 j 列为 (q_i . k_j) / sqrt(hd)。对任何查询，零键的原始分数都恰好为 0。</translation>
    </message>
    <message>
        <source>The merged additive mask</source>
        <translation>合并后的加性掩码</translation>
    </message>
    <message>
        <source>attn_mask and key_padding_mask are merged into one float mask that is ADDED to the scores. A bool True means masked and becomes -inf; a float mask is added as it is. The bias_k and zero columns get 0: they are never masked.</source>
        <translation>attn_mask 和 key_padding_mask 被合并成一个浮点掩码，并“加”到分数上。bool 值 True 表示屏蔽，变为 -inf；浮点掩码按原值相加。bias_k 列和 zero 列取 0：它们永远不会被屏蔽。</translation>
    </message>
    <message>
        <source>Masked scores: the softmax input</source>
        <translation>掩码后的分数：softmax 的输入</translation>
    </message>
    <message>
        <source>The mask is added to the scaled scores in one fused call. Masked cells are -inf; a float bias (ALiBi, a graph distance) shifts the scores of each head.</source>
        <translation>掩码在一次融合调用中加到缩放后的分数上。被屏蔽的单元格为 -inf；浮点偏置（ALiBi、图距离）会平移每个头的分数。</translation>
    </message>
    <message>
        <source>Attention weights (softmax)</source>
        <translation>注意力权重（softmax）</translation>
    </message>
    <message>
        <source>Each row is turned into probabilities: exp(score - row max) divided by the row&apos;s sum. Masked keys get weight 0. A row whose every key is masked is -inf everywhere, so softmax computes 0/0 = NaN.</source>
        <translation>每一行都被转换成概率：exp(分数 - 行最大值) 除以该行之和。被屏蔽的键权重为 0。如果一行的所有键都被屏蔽，则该行处处为 -inf，softmax 计算 0/0 = NaN。</translation>
    </message>
    <message>
        <source>Attention weights after dropout</source>
        <translation>dropout 之后的注意力权重</translation>
    </message>
    <message>
        <source>When training with dropout p &gt; 0, each weight is zeroed with probability p and the kept ones are divided by (1 - p). In eval mode the weights are the softmax itself. These are the weights PyTorch returns (averaged over heads when average_attn_weights=True).</source>
        <translation>在 dropout p &gt; 0 的训练模式下，每个权重以概率 p 被置零，保留的权重除以 (1 - p)。在 eval 模式下，权重就是 softmax 本身。这些就是 PyTorch 返回的权重（average_attn_weights=True 时对各头取平均）。</translation>
    </message>
    <message>
        <source>Head outputs: weights @ v</source>
        <translation>头输出：权重 @ v</translation>
    </message>
    <message>
        <source>Each query&apos;s output in head h is the weighted sum of the value rows of that head, including bias_v and the zero value. A NaN weight row gives a NaN output row.</source>
        <translation>每个查询在头 h 中的输出，是该头各值行（包括 bias_v 和零值）的加权和。权重行为 NaN 时，输出行也为 NaN。</translation>
    </message>
    <message>
        <source>Heads merged (before out_proj)</source>
        <translation>合并各头（out_proj 之前）</translation>
    </message>
    <message>
        <source>The H head outputs are concatenated back into E features: head h fills features [h*hd, (h+1)*hd) of each query row.</source>
        <translation>H 个头的输出被拼接回 E 个特征：头 h 填充每个查询行的特征 [h*hd, (h+1)*hd)。</translation>
    </message>
    <message>
        <source>Parameters: out_proj.weight</source>
        <translation>参数：out_proj.weight</translation>
    </message>
    <message>
        <source>The output projection mixes the concatenated heads: a (E, E) matrix whose column block [h*hd, (h+1)*hd) reads head h&apos;s features.</source>
        <translation>输出投影混合拼接后的各头：这是一个 (E, E) 矩阵，其列块 [h*hd, (h+1)*hd) 读取头 h 的特征。</translation>
    </message>
    <message>
        <source>Output: out_proj</source>
        <translation>输出：out_proj</translation>
    </message>
    <message>
        <source>The merged features go through out_proj (x @ W_o.T + b_o). This is attn_output, PyTorch&apos;s first return value (transposed to (N, L, E) when batch_first).</source>
        <translation>合并后的特征经过 out_proj（x @ W_o.T + b_o）。这就是 attn_output，PyTorch 的第一个返回值（batch_first 时转置为 (N, L, E)）。</translation>
    </message>
    <message>
        <source>%1 (recomputed) vs %2 (stored by the core) &lt;b&gt;differ&lt;/b&gt;</source>
        <translation>%1（重新计算）与 %2（核心保存的值）&lt;b&gt;不一致&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Batch %1, head %2, query %3, key %4&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;批次 %1，头 %2，查询 %3，键 %4&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;zero key&lt;/b&gt;: the all-zero key appended after the head split by add_zero_attn; never masked. Its raw score is exactly 0 (q . 0 = 0).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;零键&lt;/b&gt;：add_zero_attn 在拆分头之后追加的全零键；永远不会被屏蔽。它的原始分数恰好为 0（q . 0 = 0）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Key column %1 is source position %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;键列 %1 对应源位置 %2。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>q_i (%1 numbers)</source>
        <translation>q_i（%1 个数）</translation>
    </message>
    <message>
        <source>k_j (%1 numbers)</source>
        <translation>k_j（%1 个数）</translation>
    </message>
    <message>
        <source>q_i . k_j</source>
        <translation>q_i . k_j</translation>
    </message>
    <message>
        <source>/ sqrt(hd) = / %1</source>
        <translation>/ sqrt(hd) = / %1</translation>
    </message>
    <message>
        <source>+ mask term</source>
        <translation>+ 掩码项</translation>
    </message>
    <message>
        <source>= score</source>
        <translation>= 分数</translation>
    </message>
    <message>
        <source>row max</source>
        <translation>行最大值</translation>
    </message>
    <message>
        <source>exp(score - max)</source>
        <translation>exp(分数 - 最大值)</translation>
    </message>
    <message>
        <source>row sum of exp</source>
        <translation>exp 的行和</translation>
    </message>
    <message>
        <source>softmax = exp / sum</source>
        <translation>softmax = exp / 和</translation>
    </message>
    <message>
        <source>after dropout</source>
        <translation>dropout 之后</translation>
    </message>
    <message>
        <source>&lt;p&gt;This key is masked for this query: -inf is added, so exp gives 0.&lt;/p&gt;</source>
        <translation>&lt;p&gt;对这个查询而言，该键被屏蔽：加上了 -inf，因此 exp 得到 0。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;NaN&lt;/b&gt;: every key of this query row is masked (-inf), so the row max is -inf and softmax computes 0/0 = NaN, as PyTorch does. add_zero_attn or add_bias_kv prevent it: their key is never masked.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;NaN&lt;/b&gt;：该查询行的所有键都被屏蔽（-inf），因此行最大值为 -inf，softmax 计算 0/0 = NaN，与 PyTorch 相同。add_zero_attn 或 add_bias_kv 可以避免这种情况：它们的键永远不会被屏蔽。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Average over heads: batch %1, query %2, key %3&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;各头平均：批次 %1，查询 %2，键 %3&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>mean (average_attn_weights)</source>
        <translation>平均值（average_attn_weights）</translation>
    </message>
    <message>
        <source>Where bias_k and the zero key go</source>
        <translation>bias_k 和零键的位置</translation>
    </message>
    <message>
        <source>True in a bool mask means masked</source>
        <translation>bool 掩码中 True 表示屏蔽</translation>
    </message>
    <message>
        <source>&lt;p&gt;In nn.MultiheadAttention a bool &lt;code&gt;attn_mask&lt;/code&gt; or &lt;code&gt;key_padding_mask&lt;/code&gt; entry &lt;b&gt;True means the key is hidden&lt;/b&gt; (masked) from the query. It becomes -inf in the additive mask.&lt;/p&gt;&lt;p&gt;This is the &lt;b&gt;opposite&lt;/b&gt; of &lt;code&gt;F.scaled_dot_product_attention&lt;/code&gt;, where True means the key takes part. Passing one framework&apos;s mask to the other inverts it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在 nn.MultiheadAttention 中，bool 类型的 &lt;code&gt;attn_mask&lt;/code&gt; 或 &lt;code&gt;key_padding_mask&lt;/code&gt; 中的 &lt;b&gt;True 表示该键对查询不可见&lt;/b&gt;（被屏蔽）。它在加性掩码中变为 -inf。&lt;/p&gt;&lt;p&gt;这与 &lt;code&gt;F.scaled_dot_product_attention&lt;/code&gt; &lt;b&gt;相反&lt;/b&gt;，后者中 True 表示该键参与计算。把一种框架的掩码直接传给另一种，含义会颠倒。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Float masks are added</source>
        <translation>浮点掩码是相加的</translation>
    </message>
    <message>
        <source>&lt;p&gt;A float &lt;code&gt;attn_mask&lt;/code&gt; is &lt;b&gt;added&lt;/b&gt; to the scaled scores before the softmax: &lt;code&gt;scores = q k^T / sqrt(hd) + attn_mask&lt;/code&gt;. 0 leaves a score alone, -inf masks it, and finite values bias it (ALiBi&apos;s -m_h |i - j|, a graph distance). It is not multiplied and not a probability.&lt;/p&gt;&lt;p&gt;key_padding_mask is broadcast over heads and queries and merged into the same additive mask.&lt;/p&gt;</source>
        <translation>&lt;p&gt;浮点 &lt;code&gt;attn_mask&lt;/code&gt; 在 softmax 之前被&lt;b&gt;加&lt;/b&gt;到缩放后的分数上：&lt;code&gt;scores = q k^T / sqrt(hd) + attn_mask&lt;/code&gt;。0 保持分数不变，-inf 屏蔽它，有限值则对它施加偏置（ALiBi 的 -m_h |i - j|、图距离）。它不是乘上去的，也不是概率。&lt;/p&gt;&lt;p&gt;key_padding_mask 在头和查询维度上广播，并合并到同一个加性掩码中。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Why NaN appears</source>
        <translation>为什么会出现 NaN</translation>
    </message>
    <message>
        <source>&lt;p&gt;When &lt;b&gt;every&lt;/b&gt; key of a query is masked (a fully masked causal row, or a batch element whose keys are all padding), the row of scores is -inf everywhere. Softmax computes exp(-inf - (-inf)) = 0/0 = &lt;b&gt;NaN&lt;/b&gt; for every weight, and the query&apos;s output row is NaN too. PyTorch does the same.&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_zero_attn&lt;/b&gt; or &lt;b&gt;add_bias_kv&lt;/b&gt; remove it: their key column is never masked, so every row has at least one finite score.&lt;/p&gt;</source>
        <translation>&lt;p&gt;当一个查询的&lt;b&gt;所有&lt;/b&gt;键都被屏蔽时（完全被屏蔽的因果行，或所有键都是填充的批次元素），该行分数处处为 -inf。softmax 对每个权重计算 exp(-inf - (-inf)) = 0/0 = &lt;b&gt;NaN&lt;/b&gt;，该查询的输出行也是 NaN。PyTorch 的行为相同。&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_zero_attn&lt;/b&gt; 或 &lt;b&gt;add_bias_kv&lt;/b&gt; 可以消除它：它们的键列永远不会被屏蔽，因此每一行至少有一个有限的分数。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>What average_attn_weights averages</source>
        <translation>average_attn_weights 平均的是什么</translation>
    </message>
    <message>
        <source>&lt;p&gt;With &lt;code&gt;average_attn_weights=True&lt;/code&gt; (the default) the returned weights are the &lt;b&gt;mean over the H heads&lt;/b&gt; of the per-head softmax weights, shape (N, L, S&apos;) instead of (N, H, L, S&apos;). Each averaged row still sums to 1. It averages the weights, not the scores, and not over batch elements. The output itself always uses each head&apos;s own weights.&lt;/p&gt;</source>
        <translation>&lt;p&gt;当 &lt;code&gt;average_attn_weights=True&lt;/code&gt;（默认值）时，返回的权重是各头 softmax 权重&lt;b&gt;在 H 个头上的平均值&lt;/b&gt;，形状为 (N, L, S&apos;) 而不是 (N, H, L, S&apos;)。平均后的每一行之和仍为 1。它平均的是权重而不是分数，也不在批次元素之间平均。输出本身始终使用每个头自己的权重。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>PyTorch 1.13 and 2.x</source>
        <translation>PyTorch 1.13 与 2.x</translation>
    </message>
    <message>
        <source>Attention &amp;explained</source>
        <translation>注意力详解(&amp;E)</translation>
    </message>
    <message>
        <source>Causal self-attention</source>
        <translation>因果自注意力</translation>
    </message>
    <message>
        <source>Padding with a fully padded batch element</source>
        <translation>含完全填充批次元素的填充</translation>
    </message>
    <message>
        <source>add_bias_kv and add_zero_attn together</source>
        <translation>同时使用 add_bias_kv 和 add_zero_attn</translation>
    </message>
    <message>
        <source>Cross-attention with kdim and vdim</source>
        <translation>使用 kdim 和 vdim 的交叉注意力</translation>
    </message>
    <message>
        <source>ALiBi per-head bias</source>
        <translation>ALiBi 每头偏置</translation>
    </message>
    <message>
        <source>Graphormer-style edge bias</source>
        <translation>Graphormer 风格的边偏置</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>示例(&amp;X)</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Keys are projected with W_k and split into heads like q. add_bias_kv appends (it does not prepend) the learned row bias_k at the END of the keys, after the projection and before the head split; add_zero_attn appends an all-zero row after the head split. These extra rows are the last rows of the map: S+1 with one option, S+2 with both.</source>
        <translation>键用 W_k 投影，并像 q 一样拆分到各个头。add_bias_kv 在投影之后、拆分头之前，把可学习的行 bias_k 追加（而不是前置）到键的末尾；add_zero_attn 在拆分头之后追加一个全零行。这些额外的行是图中的最后几行：开启一个选项时为 S+1，两个都开启时为 S+2。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;The vectors&lt;/b&gt; whose dot product is q_i . k_j:&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;向量&lt;/b&gt;（其点积即 q_i . k_j）：&lt;/p&gt;</translation>
    </message>
    <message>
        <source>soft-cap: %1 * tanh(raw / %1)</source>
        <translation>软上限：%1 * tanh(raw / %1)</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Soft-cap&lt;/b&gt; (attn_logit_softcapping, as in Gemma 2): the scaled raw score is squashed smoothly into (-%1, %1) before the mask is added, so no key can dominate by an extreme score.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;软上限&lt;/b&gt;（attn_logit_softcapping，与 Gemma 2 相同）：缩放后的原始分数在加上掩码之前被平滑地压缩到 (-%1, %1) 内，因此没有哪个键能凭极端分数占据主导。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Soft-capped scores: cap * tanh(raw / cap)</source>
        <translation>软上限分数：cap * tanh(raw / cap)</translation>
    </message>
    <message>
        <source>With attn_logit_softcapping (Gemma 2&apos;s soft-cap; not a PyTorch argument) every scaled raw score s becomes cap * tanh(s / cap) BEFORE the mask is added: close to s when |s| is small against the cap, never beyond +-cap, so one key cannot take all the weight through an extreme score. Masked keys stay -inf after the mask.</source>
        <translation>设置 attn_logit_softcapping（Gemma 2 的软上限；不是 PyTorch 的参数）时，每个缩放后的原始分数 s 在加上掩码之前变为 cap * tanh(s / cap)：|s| 远小于 cap 时接近 s，且永远不超过 ±cap，因此没有哪个键能凭极端分数拿走全部权重。被遮蔽的键在加上掩码后仍为 -inf。</translation>
    </message>
    <message>
        <source>Analysis: value-weighted norms</source>
        <translation>分析：值加权范数</translation>
    </message>
    <message>
        <source>Not a PyTorch step: || weight * f_h(x_j) || with f_h(x_j) = v_j W_O^h (Kobayashi et al. 2020), what key j really adds to query i&apos;s output through head h. The zero key adds nothing (its value is 0); bias_k&apos;s value is bias_v. Last map: the sum over heads.</source>
        <translation>这不是 PyTorch 的步骤：|| weight * f_h(x_j) ||，其中 f_h(x_j) = v_j W_O^h（Kobayashi 等，2020），即键 j 经由头 h 实际给查询 i 的输出加了多少。zero 键什么也不加（其值为 0）；bias_k 的值是 bias_v。最后一张图：各头之和。</translation>
    </message>
    <message>
        <source>Analysis: value zeroing</source>
        <translation>分析：值置零</translation>
    </message>
    <message>
        <source>Not a PyTorch step: how much query i&apos;s output row changes when key j&apos;s value vector is zeroed in every head, the weights kept (Mohebbi et al. 2023, here within the attention layer only). First map: cosine distance 1 - cos(o, o&apos;); second: |o&apos; - o| / |o|. The zero key&apos;s value is already 0, so its column is 0.</source>
        <translation>这不是 PyTorch 的步骤：在每个头中把键 j 的值向量置零、权重保持不变时，查询 i 的输出行改变多少（Mohebbi 等，2023，这里只限于注意力层）。第一张图：余弦距离 1 - cos(o, o&apos;)；第二张：|o&apos; - o| / |o|。zero 键的值本来就是 0，所以它的列为 0。</translation>
    </message>
    <message>
        <source>Analysis: sink scores</source>
        <translation>分析：汇聚分数</translation>
    </message>
    <message>
        <source>Not a PyTorch step: each key column&apos;s mean weight over the queries, per head (Gu et al. 2024). A key most queries look at, often the first token, is an attention sink; a query whose keys are all masked has no weight to give and is left out. With add_zero_attn the zero column&apos;s score is the head&apos;s mean weight sent to nothing.</source>
        <translation>并非 PyTorch 的步骤：每个头中每个键列在各查询上的平均权重（Gu 等人 2024）。大多数查询都关注的键（通常是第一个词元）就是注意力汇聚点；所有键都被掩码的查询没有权重可分配，因而不计入。使用 add_zero_attn 时，零列的分数就是该头平均“发往虚无”的权重。</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;bias_k&lt;/b&gt;: a learned key appended at the end, after the in-projection, by add_bias_kv; never masked. It has no query row of its own (it never attends): a learned &quot;null&quot; key, an attention sink for weight that fits no source key.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;bias_k&lt;/b&gt;：add_bias_kv 在输入投影之后追加到末尾的可学习的键；永远不会被屏蔽。它没有自己的查询行（它从不关注任何键）：它是一个可学习的“空”（null）键，一个注意力汇点（attention sink），接收不适合任何源键的权重。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;A common misconception:&lt;/b&gt; the extra keys are &lt;b&gt;not prepended&lt;/b&gt; at position 0 like a [CLS] token. bias_k/bias_v are appended at the &lt;b&gt;end&lt;/b&gt;, &lt;b&gt;after&lt;/b&gt; the projection; the zero key is appended after them, &lt;b&gt;after&lt;/b&gt; the head split. They are always the &lt;b&gt;last&lt;/b&gt; key columns.&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_bias_kv&lt;/b&gt; appends one learned row &lt;code&gt;bias_k&lt;/code&gt; to the keys and &lt;code&gt;bias_v&lt;/code&gt; to the values: after the S source keys, after the in-projection (they are not multiplied by W_k or W_v) and before the head split. S becomes S+1.&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_zero_attn&lt;/b&gt; appends one all-zero row of width hd to k and v &lt;b&gt;after&lt;/b&gt; the head split, after bias_k when both are on. With add_zero_attn alone S becomes S+1; with both options S becomes S+2. Its raw score is exactly 0 for every query.&lt;/p&gt;&lt;p&gt;Both columns get mask 0: they are never masked. The grid labels them &lt;i&gt;bias_k&lt;/i&gt; and &lt;i&gt;zero&lt;/i&gt; and sets them apart.&lt;/p&gt;&lt;p&gt;&lt;b&gt;bias_k is a key, not a token.&lt;/b&gt; It has &lt;b&gt;no query row&lt;/b&gt;: the queries are still the L rows of the query input, so a column is added to the weights, never a row. bias_k therefore &lt;b&gt;never attends&lt;/b&gt; to anything, itself included; it is only attended to. Its key is learned and the same for every input, so it acts as a learned &lt;b&gt;&quot;null&quot; key&lt;/b&gt;, an &lt;b&gt;attention sink&lt;/b&gt;: a query that finds no source key worth attending puts its weight there, and bias_v is what that weight adds to the output (the zero key is the same kind of sink, with a score fixed at 0 and a value that adds nothing).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;常见误解：&lt;/b&gt;额外的键&lt;b&gt;并不是&lt;/b&gt;像 [CLS] 标记那样&lt;b&gt;前置&lt;/b&gt;在位置 0。bias_k/bias_v 在投影&lt;b&gt;之后&lt;/b&gt;追加到&lt;b&gt;末尾&lt;/b&gt;；零键在拆分头&lt;b&gt;之后&lt;/b&gt;追加在它们后面。它们总是&lt;b&gt;最后&lt;/b&gt;的几列键。&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_bias_kv&lt;/b&gt; 向键追加一行可学习的 &lt;code&gt;bias_k&lt;/code&gt;，向值追加 &lt;code&gt;bias_v&lt;/code&gt;：位于 S 个源键之后、输入投影之后（不乘以 W_k 或 W_v）、拆分头之前。S 变为 S+1。&lt;/p&gt;&lt;p&gt;&lt;b&gt;add_zero_attn&lt;/b&gt; 在拆分头&lt;b&gt;之后&lt;/b&gt;向 k 和 v 各追加一行宽度为 hd 的全零行；两者都开启时位于 bias_k 之后。只开启 add_zero_attn 时 S 变为 S+1；两个选项都开启时 S 变为 S+2。对任何查询，它的原始分数都恰好为 0。&lt;/p&gt;&lt;p&gt;这两列的掩码都为 0：它们永远不会被屏蔽。网格把它们标为 &lt;i&gt;bias_k&lt;/i&gt; 和 &lt;i&gt;zero&lt;/i&gt; 并单独标出。&lt;/p&gt;&lt;p&gt;&lt;b&gt;bias_k 是一个键，而不是一个词元。&lt;/b&gt;它&lt;b&gt;没有查询行&lt;/b&gt;：查询仍然是查询输入的 L 行，因此权重只多出一列，而不会多出一行。所以 bias_k &lt;b&gt;从不关注&lt;/b&gt;任何键，包括它自己；它只会被关注。它的键是学习得到的，对任何输入都相同，因此它起到一个可学习的&lt;b&gt;“空”（null）键&lt;/b&gt;的作用，即一个&lt;b&gt;注意力汇点&lt;/b&gt;（attention sink）：找不到值得关注的源键的查询会把权重放在这里，而 bias_v 就是这部分权重给输出增加的内容（零键也是同一类汇点，只是分数固定为 0，值不增加任何内容）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>no weight entry at map %1, row %2, column %3</source>
        <translation>图 %1 的第 %2 行、第 %3 列没有权重元素</translation>
    </message>
    <message>
        <source>not a weight-matrix stage</source>
        <translation>不是权重矩阵阶段</translation>
    </message>
    <message>
        <source>&lt;p&gt;Entry %1[%2, %3] = &lt;b&gt;%4&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;元素 %1[%2, %3] = &lt;b&gt;%4&lt;/b&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>the heads concatenated</source>
        <translation>拼接后的各头输出</translation>
    </message>
    <message>
        <source>&lt;p&gt;A row is an &lt;b&gt;output feature&lt;/b&gt;: this row makes feature %1 of %2 (head %3&apos;s dimension %4, since each head takes hd = %5 rows). A column is an &lt;b&gt;input feature&lt;/b&gt;: this column reads feature %6 of the %7 input.&lt;/p&gt;</source>
        <translation>&lt;p&gt;一行是一个&lt;b&gt;输出特征&lt;/b&gt;：这一行生成 %2 的特征 %1（头 %3 的第 %4 维，因为每个头占 hd = %5 行）。一列是一个&lt;b&gt;输入特征&lt;/b&gt;：这一列读取 %7 输入的特征 %6。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;A row is an &lt;b&gt;output feature&lt;/b&gt;: this row makes feature %1 of attn_output. A column is an &lt;b&gt;input feature&lt;/b&gt;: this column reads feature %2 of %3, which is head %4&apos;s dimension %5.&lt;/p&gt;</source>
        <translation>&lt;p&gt;一行是一个&lt;b&gt;输出特征&lt;/b&gt;：这一行生成 attn_output 的特征 %1。一列是一个&lt;b&gt;输入特征&lt;/b&gt;：这一列读取%3的特征 %2，即头 %4 的第 %5 维。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;%1[., %2] = &amp;Sigma;&lt;sub&gt;c&lt;/sub&gt; %3[%4, c] &amp;middot; %5[., c]%6: this entry is how much input feature %7 adds to output feature %2, per unit.&lt;/p&gt;</source>
        <translation>&lt;p&gt;%1[., %2] = &amp;Sigma;&lt;sub&gt;c&lt;/sub&gt; %3[%4, c] &amp;middot; %5[., c]%6：这个元素表示输入特征 %7 每增加一个单位，输出特征 %2 增加多少。&lt;/p&gt;</translation>
    </message>
    <message>
        <source> + bias %1</source>
        <translation> + 偏置 %1</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1, head %2: output feature %3, input feature %4&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;%1，头 %2：输出特征 %3，输入特征 %4&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1: output feature %2, input feature %3&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;%1：输出特征 %2，输入特征 %3&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;mhaviz follows PyTorch 2.x. Differences from 1.13:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;uint8 masks&lt;/b&gt;: 1.13 converts them to bool with a deprecation warning; 2.x rejects them. Use bool masks.&lt;/li&gt;&lt;li&gt;&lt;b&gt;need_weights=False&lt;/b&gt;: 2.x goes through scaled_dot_product_attention, which since 2.5 returns &lt;b&gt;0&lt;/b&gt; instead of NaN for fully masked rows (2.0-2.4 give NaN as 1.13 does) — unless the call takes 2.x&apos;s &lt;b&gt;fast path&lt;/b&gt; (eval, grad disabled, batched self-attention with batch_first, see &quot;grad mode&quot;), which gives NaN; with need_weights=True all give NaN.&lt;/li&gt;&lt;li&gt;Mixed bool/float masks: 1.13 ORs bool masks; 2.x converts both to float and adds them (and warns that mixing is deprecated).&lt;/li&gt;&lt;li&gt;&lt;code&gt;is_causal&lt;/code&gt; exists only in 2.x and still needs an attn_mask; on the SDPA path without key_padding_mask PyTorch drops that mask for its own causal mask over every key column, bias_k and zero key included.&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;p&gt;mhaviz 遵循 PyTorch 2.x。与 1.13 的区别：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;uint8 掩码&lt;/b&gt;：1.13 会把它们转换为 bool 并给出弃用警告；2.x 直接拒绝。请使用 bool 掩码。&lt;/li&gt;&lt;li&gt;&lt;b&gt;need_weights=False&lt;/b&gt;：2.x 走 scaled_dot_product_attention，从 2.5 起对完全被屏蔽的行返回 &lt;b&gt;0&lt;/b&gt; 而不是 NaN（2.0-2.4 与 1.13 一样得到 NaN）——除非该调用走 2.x 的&lt;b&gt;快速路径&lt;/b&gt;（eval、禁用梯度、batch_first 的批量自注意力，见“梯度模式”），快速路径得到 NaN；need_weights=True 时都得到 NaN。&lt;/li&gt;&lt;li&gt;bool/浮点混合掩码：1.13 对 bool 掩码取或；2.x 把两者都转换为浮点后相加（并警告混用已被弃用）。&lt;/li&gt;&lt;li&gt;&lt;code&gt;is_causal&lt;/code&gt; 只在 2.x 中存在，并且仍然需要 attn_mask；在没有 key_padding_mask 的 SDPA 路径上，PyTorch 丢弃该掩码，改在每个键列（包括 bias_k 和零键）上使用自己的因果掩码。&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::AttnMaskEditor</name>
    <message>
        <source>attn_mask</source>
        <translation>attn_mask</translation>
    </message>
    <message>
        <source>attn_mask — forward(attn_mask=...): which positions a query may not attend to (bool True = masked), or a float bias added to the scores.</source>
        <translation>attn_mask — forward(attn_mask=...)：查询不能关注的位置（bool True = 屏蔽），或加到分数上的浮点偏置。</translation>
    </message>
    <message>
        <source>bool (True = masked)</source>
        <translation>bool（True = 屏蔽）</translation>
    </message>
    <message>
        <source>2-D (L, S), all heads</source>
        <translation>二维 (L, S)，所有头</translation>
    </message>
    <message>
        <source>3-D (N*H, L, S), per head</source>
        <translation>三维 (N*H, L, S)，每个头</translation>
    </message>
    <message>
        <source>Float masks: the value a masked cell adds to its score. -inf hides the key exactly; a finite value such as -10000 almost.</source>
        <translation>浮点掩码：被屏蔽的单元格加到其分数上的值。-inf 完全隐藏该键；-10000 这样的有限值则近似隐藏。</translation>
    </message>
    <message>
        <source>window: query i sees keys i-width+1 .. i; band: keys with |i-j| &lt; width.</source>
        <translation>窗口：查询 i 看到键 i-width+1 .. i；带状：看到满足 |i-j| &lt; width 的键。</translation>
    </message>
    <message>
        <source>Segment sizes, e.g. &quot;3 5&quot;: a query sees only keys of its own segment; positions past their sum form one last segment.</source>
        <translation>段大小，例如“3 5”：查询只能看到自己所在段的键；超出总和的位置组成最后一段。</translation>
    </message>
    <message>
        <source>auto (seed + 3)</source>
        <translation>auto（种子 + 3）</translation>
    </message>
    <message>
        <source>also mask later keys (j &gt; i)</source>
        <translation>同时屏蔽之后的键（j &gt; i）</translation>
    </message>
    <message>
        <source>Undirected edges between positions as u-v pairs (query i is node i, key j is node j).</source>
        <translation>位置之间的无向边，写作 u-v 对（查询 i 是节点 i，键 j 是节点 j）。</translation>
    </message>
    <message>
        <source>distance (-slope x d)</source>
        <translation>距离（-斜率 x d）</translation>
    </message>
    <message>
        <source>table per head</source>
        <translation>每头查表</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>masked value</source>
        <translation>屏蔽值</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>segments</source>
        <translation>分段</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>edges</source>
        <translation>边</translation>
    </message>
    <message>
        <source>edge probability</source>
        <translation>边概率</translation>
    </message>
    <message>
        <source>graph bias</source>
        <translation>图偏置</translation>
    </message>
    <message>
        <source>max distance</source>
        <translation>最大距离</translation>
    </message>
    <message>
        <source>table scale</source>
        <translation>查表缩放</translation>
    </message>
    <message>
        <source>Set attn_mask kind to %1</source>
        <translation>将 attn_mask 类型设为 %1</translation>
    </message>
    <message>
        <source>Set attn_mask dtype to %1</source>
        <translation>将 attn_mask 的 dtype 设为 %1</translation>
    </message>
    <message>
        <source>Set attn_mask shape to %1</source>
        <translation>将 attn_mask 形状设为 %1</translation>
    </message>
    <message>
        <source>Set attn_mask masked_value</source>
        <translation>设置 attn_mask 的 masked_value</translation>
    </message>
    <message>
        <source>Set attn_mask width to %1</source>
        <translation>将 attn_mask 宽度设为 %1</translation>
    </message>
    <message>
        <source>segments: &quot;%1&quot; is not a positive size; type sizes such as &quot;3 5&quot;.</source>
        <translation>分段：“%1”不是正的大小；请输入“3 5”这样的大小。</translation>
    </message>
    <message>
        <source>Set attn_mask segments</source>
        <translation>设置 attn_mask 分段</translation>
    </message>
    <message>
        <source>Set attn_mask probability</source>
        <translation>设置 attn_mask 概率</translation>
    </message>
    <message>
        <source>Set attn_mask seed</source>
        <translation>设置 attn_mask 种子</translation>
    </message>
    <message>
        <source>Set attn_mask causal</source>
        <translation>设置 attn_mask 因果</translation>
    </message>
    <message>
        <source>edges: &quot;%1&quot; is not an edge; type pairs such as &quot;0-1 1-2&quot;.</source>
        <translation>边：“%1”不是一条边；请输入“0-1 1-2”这样的节点对。</translation>
    </message>
    <message>
        <source>Set graph edges</source>
        <translation>设置图的边</translation>
    </message>
    <message>
        <source>Set graph edge probability</source>
        <translation>设置图的边概率</translation>
    </message>
    <message>
        <source>Set graph bias</source>
        <translation>设置图偏置</translation>
    </message>
    <message>
        <source>Set graph max distance</source>
        <translation>设置图的最大距离</translation>
    </message>
    <message>
        <source>Set graph table scale</source>
        <translation>设置图的查表缩放</translation>
    </message>
    <message>
        <source>3-D masks: the block b = n*H + h (batch element n, head h) the grid shows and edits.</source>
        <translation>三维掩码：网格显示和编辑的块 b = n*H + h（批次元素 n，头 h）。</translation>
    </message>
    <message>
        <source>block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>屏蔽</translation>
    </message>
    <message>
        <source>Float masks: clicked cells get masked_value; uncheck to set the value in the box instead.</source>
        <translation>浮点掩码：单击的单元格取 masked_value；取消勾选则改为设为框中的值。</translation>
    </message>
    <message>
        <source>Float masks: the value a clicked cell adds to its score.</source>
        <translation>浮点掩码：单击的单元格加到其分数上的值。</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Unmask every cell of this block</source>
        <translation>取消屏蔽此块的所有单元格</translation>
    </message>
    <message>
        <source>Invert</source>
        <translation>反转</translation>
    </message>
    <message>
        <source>Toggle every cell</source>
        <translation>切换所有单元格</translation>
    </message>
    <message>
        <source>Fill row</source>
        <translation>填充行</translation>
    </message>
    <message>
        <source>Mask (or set) query row i</source>
        <translation>屏蔽（或设置）查询行 i</translation>
    </message>
    <message>
        <source>Fill column</source>
        <translation>填充列</translation>
    </message>
    <message>
        <source>Mask (or set) key column j</source>
        <translation>屏蔽（或设置）键列 j</translation>
    </message>
    <message>
        <source>cell value</source>
        <translation>单元格值</translation>
    </message>
    <message>
        <source>row i</source>
        <translation>行 i</translation>
    </message>
    <message>
        <source>column j</source>
        <translation>列 j</translation>
    </message>
    <message>
        <source>Clear custom attn_mask</source>
        <translation>清除自定义 attn_mask</translation>
    </message>
    <message>
        <source>Invert custom attn_mask</source>
        <translation>反转自定义 attn_mask</translation>
    </message>
    <message>
        <source>Fill attn_mask row %1</source>
        <translation>填充 attn_mask 第 %1 行</translation>
    </message>
    <message>
        <source>Fill attn_mask column %1</source>
        <translation>填充 attn_mask 第 %1 列</translation>
    </message>
    <message>
        <source>Toggle attn_mask cell (%1, %2)</source>
        <translation>切换 attn_mask 单元格 (%1, %2)</translation>
    </message>
    <message>
        <source>Paint %1 attn_mask cells</source>
        <translation>绘制 %1 个 attn_mask 单元格</translation>
    </message>
    <message>
        <source>every block (b = -1)</source>
        <translation>所有块（b = -1）</translation>
    </message>
    <message>
        <source>b = %1 (n = %2, head %3)</source>
        <translation>b = %1（n = %2，头 %3）</translation>
    </message>
    <message>
        <source>The mask is too large to preview here (%1 cells); the heatmap&apos;s &quot;mask&quot; stage shows it.</source>
        <translation>掩码太大，无法在此预览（%1 个单元格）；热力图的“mask”阶段会显示它。</translation>
    </message>
    <message>
        <source>No attn_mask.</source>
        <translation>无 attn_mask。</translation>
    </message>
    <message>
        <source>%1 is an additive bias that differs per head, so attn_mask is set to float and 3-D (N*H, L, S): block b = n*H + h is added to head h&apos;s scores of batch element n.</source>
        <translation>%1 是每个头各不相同的加性偏置，因此 attn_mask 被设为浮点、三维 (N*H, L, S)：块 b = n*H + h 加到批次元素 n 的头 h 的分数上。</translation>
    </message>
    <message>
        <source>ALiBi</source>
        <translation>ALiBi</translation>
    </message>
    <message>
        <source>The graph bias</source>
        <translation>图偏置</translation>
    </message>
    <message>
        <source>prefix-LM: the first p positions see each other in both directions; later queries see keys j &lt;= i (attn_mask.prefix_length, 0 &lt;= p &lt;= min(L, S)).</source>
        <translation>prefix-LM：前 p 个位置双向互相可见；之后的查询只看到键 j &lt;= i（attn_mask.prefix_length，0 &lt;= p &lt;= min(L, S)）。</translation>
    </message>
    <message>
        <source>Lengths of the packed documents, e.g. &quot;3 5&quot;; they must add up to L = S. A query sees only keys of its own document (attn_mask.document_lengths).</source>
        <translation>打包文档的长度，例如 &quot;3 5&quot;；总和必须等于 L = S。查询只看到自己文档内的键（attn_mask.document_lengths）。</translation>
    </message>
    <message>
        <source>dilated window: query i sees keys at distance 0, d, 2d, ... (width keys in all) (attn_mask.dilation).</source>
        <translation>空洞窗口：查询 i 看到距离为 0、d、2d …… 的键（共 width 个）（attn_mask.dilation）。</translation>
    </message>
    <message>
        <source>StreamingLLM: the first k keys every query sees besides its causal window of width keys (attn_mask.sink_tokens).</source>
        <translation>StreamingLLM：除宽度为 width 的因果窗口外，每个查询都能看到的前 k 个键（attn_mask.sink_tokens）。</translation>
    </message>
    <message>
        <source>prefix length</source>
        <translation>前缀长度</translation>
    </message>
    <message>
        <source>document lengths</source>
        <translation>文档长度</translation>
    </message>
    <message>
        <source>dilation</source>
        <translation>空洞间隔</translation>
    </message>
    <message>
        <source>sink tokens</source>
        <translation>汇点词元数</translation>
    </message>
    <message>
        <source>Set attn_mask prefix length to %1</source>
        <translation>将 attn_mask 前缀长度设为 %1</translation>
    </message>
    <message>
        <source>Set attn_mask dilation to %1</source>
        <translation>将 attn_mask 空洞间隔设为 %1</translation>
    </message>
    <message>
        <source>Set attn_mask sink tokens to %1</source>
        <translation>将 attn_mask 汇点词元数设为 %1</translation>
    </message>
    <message>
        <source>document lengths: &quot;%1&quot; is not a whole number; type lengths such as &quot;3 5&quot;.</source>
        <translation>文档长度：&quot;%1&quot; 不是整数；请输入如 &quot;3 5&quot; 的长度。</translation>
    </message>
    <message>
        <source>Set attn_mask document lengths</source>
        <translation>设置 attn_mask 文档长度</translation>
    </message>
    <message>
        <source>The %1 mask of %2 x %3 cells would need %4 custom cells to be edited by hand (at most %5): make L and S smaller to edit it cell by cell, or change the pattern with the settings above.</source>
        <translation>%2 x %3 的%1掩码需要 %4 个自定义单元格才能逐个编辑（最多 %5 个）：请减小 L 和 S 再逐格编辑，或者用上面的设置修改这个模式。</translation>
    </message>
    <message>
        <source>Edit the %1 mask as custom: %2</source>
        <translation>将%1掩码改为自定义编辑：%2</translation>
    </message>
    <message>
        <source>The %1 pattern is now a custom mask with your change applied; click or drag to edit more cells. Edit &gt; Undo gives back the %1 mask.</source>
        <translation>%1模式现在已成为自定义掩码，并已应用你的修改；单击或拖动可编辑更多单元格。“编辑 &gt; 撤销”可恢复%1掩码。</translation>
    </message>
    <message>
        <source>The custom mask starts from the %1 pattern shown before (%2 cells listed): click or drag to change cells.</source>
        <translation>自定义掩码从之前显示的%1模式开始（列出了 %2 个单元格）：单击或拖动可修改单元格。</translation>
    </message>
    <message>
        <source>The custom mask starts empty: the %1 pattern of %2 x %3 cells would need %4 custom cells (at most %5).</source>
        <translation>自定义掩码从空白开始：%2 x %3 的%1模式需要 %4 个自定义单元格（最多 %5 个）。</translation>
    </message>
    <message>
        <source>The custom mask starts empty: %1</source>
        <translation>自定义掩码从空白开始：%1</translation>
    </message>
    <message>
        <source>Set attn_mask kind to custom</source>
        <translation>将 attn_mask 类型设为自定义</translation>
    </message>
    <message>
        <source>The generated attn_mask: row i = query i, column j = key j. Dark = masked (bool True / -inf), red = negative bias, blue = positive. Click or drag to toggle cells; on a pattern such as causal the first click makes it a custom mask that starts from the pattern shown.</source>
        <translation>生成的 attn_mask：第 i 行 = 查询 i，第 j 列 = 键 j。深色 = 被屏蔽（bool True / -inf），红色 = 负偏置，蓝色 = 正偏置。单击或拖动可切换单元格；在因果等模式上，第一次单击会把它变成从当前显示的模式开始的自定义掩码。</translation>
    </message>
    <message>
        <source>No attn_mask: every query attends to every key. Choose a kind above; &quot;custom&quot; masks the cells you click.</source>
        <translation>无 attn_mask：每个查询都关注每个键。请在上面选择一种类型；“自定义”会屏蔽你单击的单元格。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::BlockSparsityView</name>
    <message>
        <source>Blocks of the merged mask (attn_mask + key_padding_mask, L x S&apos; per batch element and head) whose every cell is masked (-inf or True). A block-sparse attention kernel (FlexAttention, block-sparse FlashAttention) skips them; a finite value such as -10000 does not count as masked.</source>
        <translation>合并掩码（attn_mask + key_padding_mask，每个批次元素和头一个 L x S&apos; 图）中每个单元都被遮蔽（-inf 或 True）的块。块稀疏注意力内核（FlexAttention、块稀疏 FlashAttention）会跳过它们；-10000 这样的有限值不算遮蔽。</translation>
    </message>
    <message>
        <source>block grid</source>
        <translation>分块网格</translation>
    </message>
    <message>
        <source>%1 x %1</source>
        <translation>%1 x %1</translation>
    </message>
    <message>
        <source>Dark: a fully masked block (skipped); light: a block with at least one visible key (computed).</source>
        <translation>深色：完全遮蔽的块（跳过）；浅色：至少有一个可见键的块（需要计算）。</translation>
    </message>
    <message>
        <source>Block sparsity: shown once a result is computed.</source>
        <translation>块稀疏度：计算出结果后显示。</translation>
    </message>
    <message>
        <source>%1 x %1: %2 of %3 blocks fully masked (%4)</source>
        <translation>%1 x %1：%3 个块中有 %2 个完全遮蔽（%4）</translation>
    </message>
    <message>
        <source>Block sparsity (what a block-sparse kernel skips): %1</source>
        <translation>块稀疏度（块稀疏内核跳过的部分）：%1</translation>
    </message>
    <message>
        <source>batch %1, head %2: %3 x %4 blocks</source>
        <translation>批次 %1，头 %2：%3 x %4 个块</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::BreakdownDock</name>
    <message>
        <source>Cell breakdown</source>
        <translation>单元格分解</translation>
    </message>
    <message>
        <source>&lt;p&gt;The breakdown explains attention cells: choose the weights, scores, raw scores or mask stage and click a cell.&lt;/p&gt;</source>
        <translation>&lt;p&gt;分解视图解释注意力单元格：选择权重、分数、原始分数或掩码阶段，然后单击一个单元格。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;This map is reduced: each value is the mean or maximum of a block of cells, and the intermediates of single cells are not kept. The exact weights of a part: &lt;code&gt;mhaviz-cli run --head H --queries A:B&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;此图已缩减：每个值是一个单元块的均值或最大值，不保留单个单元的中间结果。写出部分的精确权重：&lt;code&gt;mhaviz-cli run --head H --queries A:B&lt;/code&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Click a cell of the weights, scores, raw scores or mask maps to see its arithmetic, or an entry of a weight matrix to see which features it connects.&lt;/p&gt;</source>
        <translation>&lt;p&gt;单击权重、分数、原始分数或掩码图中的单元格，查看它的计算过程；单击权重矩阵的元素，查看它连接哪些特征。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>query %1 “%2”</source>
        <translation>查询 %1“%2”</translation>
    </message>
    <message>
        <source>key %1 “%2”</source>
        <translation>键 %1“%2”</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::CausalHint</name>
    <message>
        <source>is_causal is only a hint: PyTorch 2.x requires an attn_mask with it (it does not make one).</source>
        <translation>is_causal 只是一个提示：PyTorch 2.x 要求同时提供 attn_mask（它不会自动生成）。</translation>
    </message>
    <message>
        <source>Use a causal attn_mask</source>
        <translation>使用因果 attn_mask</translation>
    </message>
    <message>
        <source>Sets attn_mask to the causal mask (key j &gt; query i masked), the mask the is_causal hint describes.</source>
        <translation>把 attn_mask 设为因果掩码（键 j &gt; 查询 i 时屏蔽），即 is_causal 提示所描述的掩码。</translation>
    </message>
    <message>
        <source>is_causal — forward(is_causal=True): a hint that attn_mask IS the causal mask, so a fast path may skip reading it. In PyTorch 2.x it requires attn_mask: without one forward fails with &quot;Need attn_mask if specifying the is_causal hint&quot;. Set attn_mask to causal (the button below does it).</source>
        <translation>is_causal — forward(is_causal=True)：提示 attn_mask 就是因果掩码，快速路径可以不读取它。在 PyTorch 2.x 中它需要 attn_mask：没有时 forward 会失败并报错 &quot;Need attn_mask if specifying the is_causal hint&quot;。请把 attn_mask 设为因果掩码（下面的按钮可以完成）。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::Colormap</name>
    <message>
        <source>viridis</source>
        <translation>viridis</translation>
    </message>
    <message>
        <source>magma</source>
        <translation>magma</translation>
    </message>
    <message>
        <source>cividis (colour-blind safe)</source>
        <translation>cividis（色盲友好）</translation>
    </message>
    <message>
        <source>grayscale (print)</source>
        <translation>灰度（打印）</translation>
    </message>
    <message>
        <source>diverging</source>
        <translation>发散</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ComparePanel</name>
    <message>
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <source>Make B the new A</source>
        <translation>将 B 作为新的 A</translation>
    </message>
    <message>
        <source>Export B − A…</source>
        <translation>导出 B − A…</translation>
    </message>
    <message>
        <source>Leave compare mode</source>
        <translation>退出对比模式</translation>
    </message>
    <message>
        <source>B − A: signed difference, diverging colours, range symmetric about 0</source>
        <translation>B − A：带符号的差值，发散配色，范围关于 0 对称</translation>
    </message>
    <message>
        <source>A of the session cannot be computed: %1</source>
        <translation>无法计算会话中的 A：%1</translation>
    </message>
    <message>
        <source>Computing B − A…</source>
        <translation>正在计算 B − A…</translation>
    </message>
    <message>
        <source>No difference shown: %1</source>
        <translation>不显示差值：%1</translation>
    </message>
    <message>
        <source>Left out of B − A: %1</source>
        <translation>未计入 B − A：%1</translation>
    </message>
    <message>
        <source>Export B − A</source>
        <translation>导出 B − A</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>图像 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>B − A, %1 — A: %2; B: %3</source>
        <translation>B − A，%1 — A：%2；B：%3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>; differs: %1</source>
        <translation>；不同之处：%1</translation>
    </message>
    <message>
        <source>Pin current settings as A</source>
        <translation>将当前设置固定为 A</translation>
    </message>
    <message>
        <source>Nothing is pinned. Pin current settings as A (the button above, or %1) keeps the current result as A; every change you make after it is B, and B − A is drawn beside them.</source>
        <translation>尚未固定任何结果。将当前设置固定为 A（上方的按钮，或 %1）会把当前结果保留为 A；此后所做的每项更改都是 B，B − A 画在它们旁边。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::Computation</name>
    <message>
        <source>Computing the new settings: the picture still shows the previous ones</source>
        <translation>正在计算新设置：图中仍是之前设置的结果</translation>
    </message>
    <message>
        <source> (The window&apos;s limit is %1; mhaviz-cli run --max-memory SIZE computes larger configurations.)</source>
        <translation>（窗口的内存上限为 %1；更大的配置可用 mhaviz-cli run --max-memory SIZE 计算。）</translation>
    </message>
    <message>
        <source>Computation cancelled: the picture shows earlier settings. Press F5 to compute again.</source>
        <translation>计算已取消：图中显示的是之前的设置。按 F5 重新计算。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ComputeWorker</name>
    <message>
        <source>Out of memory while computing this configuration. Reduce L, S, N or E, or switch to float32.</source>
        <translation>计算此配置时内存不足。请减小 L、S、N 或 E，或改用 float32。</translation>
    </message>
    <message>
        <source>Computation failed: %1</source>
        <translation>计算失败：%1</translation>
    </message>
    <message>
        <source>Computation failed with an unknown error.</source>
        <translation>计算因未知错误而失败。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::DataExport</name>
    <message>
        <source>Cannot create the folder %1. Choose another folder.</source>
        <translation>无法创建文件夹 %1。请选择其他文件夹。</translation>
    </message>
    <message>
        <source>%1, %2, head %3</source>
        <translation>%1，%2，头 %3</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::DockSubject</name>
    <message>
        <source>The model view is on screen; these docks still show the session open before it.</source>
        <translation>屏幕上是模型视图；这些面板仍显示打开模型之前的会话。</translation>
    </message>
    <message>
        <source>These docks show %1.</source>
        <translation>这些面板显示 %1。</translation>
    </message>
    <message>
        <source>Open this layer to edit</source>
        <translation>打开此层以编辑</translation>
    </message>
    <message>
        <source>Show the layer in the full view, where its settings can be changed</source>
        <translation>在完整视图中显示此层，可在那里修改其设置</translation>
    </message>
    <message>
        <source>Selected in the model view: %1.</source>
        <translation>模型视图中选中的：%1。</translation>
    </message>
    <message>
        <source>Selected in the model view: %1. The head view and the text view show it; the other docks still show the session open before the model: a weights-only layer has no parameters or inputs to compute or edit.</source>
        <translation>在模型视图中选中：%1。头视图和文本视图显示它；其他面板仍显示打开模型之前的会话：仅权重的层没有可计算或编辑的参数和输入。</translation>
    </message>
    <message>
        <source>No model is open; these docks show the session of the full view.</source>
        <translation>未打开模型；这些面板显示完整视图中的会话。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ExportActions</name>
    <message>
        <source>&amp;Export image…</source>
        <translation>导出图像(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>导出数据(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Copy image</source>
        <translation>复制图像(&amp;C)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy as &amp;PyTorch code</source>
        <translation>复制为 PyTorch 代码(&amp;P)</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>There is no picture to export yet.</source>
        <translation>还没有可导出的图片。</translation>
    </message>
    <message>
        <source>Exported</source>
        <translation>已导出</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>导出数据</translation>
    </message>
    <message>
        <source>There is no result to export yet.</source>
        <translation>还没有可导出的结果。</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Shown stage as CSV (*.csv)</source>
        <translation>当前阶段导出为 CSV (*.csv)</translation>
    </message>
    <message>
        <source>All tensors as NumPy archive (*.npz)</source>
        <translation>所有张量导出为 NumPy 归档 (*.npz)</translation>
    </message>
    <message>
        <source>Copy image</source>
        <translation>复制图像</translation>
    </message>
    <message>
        <source>Image copied to the clipboard</source>
        <translation>图像已复制到剪贴板</translation>
    </message>
    <message>
        <source>PyTorch script copied; save it as a .py file and run it. Its data: %1</source>
        <translation>PyTorch 脚本已复制；请将其保存为 .py 文件后运行。其数据：%1</translation>
    </message>
    <message>
        <source>Copy as PyTorch code</source>
        <translation>复制为 PyTorch 代码</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ExportDialog</name>
    <message>
        <source>Export image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>Whole grid</source>
        <translation>整个网格</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>S&amp;tage:</source>
        <translation>阶段(&amp;T)：</translation>
    </message>
    <message>
        <source>PNG image (pixels)</source>
        <translation>PNG 图像（像素）</translation>
    </message>
    <message>
        <source>SVG image (vector)</source>
        <translation>SVG 图像（矢量）</translation>
    </message>
    <message>
        <source>PDF document (vector)</source>
        <translation>PDF 文档（矢量）</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>DPI scale: 2 doubles the PNG&apos;s pixels (sharp on slides and print) without changing the layout.</source>
        <translation>DPI 缩放：2 会使 PNG 的像素加倍（在幻灯片和印刷中更清晰），而不改变布局。</translation>
    </message>
    <message>
        <source>&amp;Colormap:</source>
        <translation>色图(&amp;C)：</translation>
    </message>
    <message>
        <source>Transparent background (PNG, SVG)</source>
        <translation>透明背景（PNG、SVG）</translation>
    </message>
    <message>
        <source>T&amp;itle:</source>
        <translation>标题(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Export &amp;all heads…</source>
        <translation>导出所有头(&amp;A)…</translation>
    </message>
    <message>
        <source>, head %1</source>
        <translation>，头 %1</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PDF document (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export all heads to folder</source>
        <translation>将所有头导出到文件夹</translation>
    </message>
    <message>
        <source>Export all heads</source>
        <translation>导出所有头</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to %1.</source>
        <translation>
            <numerusform>已将 %n 个文件写入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>DPI scale:</source>
        <translation>DPI 缩放：</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>px</source>
        <translation>像素</translation>
    </message>
    <message>
        <source>pt</source>
        <translation>点</translation>
    </message>
    <message>
        <source>Size (px):</source>
        <translation>尺寸（像素）：</translation>
    </message>
    <message>
        <source>Size (pt):</source>
        <translation>尺寸（点）：</translation>
    </message>
    <message>
        <source>→ %1 × %2 px in the file</source>
        <translation>→ 文件中为 %1 × %2 像素</translation>
    </message>
    <message>
        <source>vector: %1 × %2 pt = %3 × %4 cm</source>
        <translation>矢量：%1 × %2 点 = %3 × %4 厘米</translation>
    </message>
    <message>
        <source>Heatmap grid</source>
        <translation>热图网格</translation>
    </message>
    <message>
        <source>The grid, or a token view exactly as shown (its hovered or pinned token included)</source>
        <translation>网格，或按当前显示导出的词元视图（包括悬停或固定的词元）</translation>
    </message>
    <message>
        <source>&amp;Picture:</source>
        <translation>图片(&amp;P)：</translation>
    </message>
    <message>
        <source>the configuration and what the view shows</source>
        <translation>配置及该视图所显示的内容</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::HeadMeasuresView</name>
    <message>
        <source>No result yet.</source>
        <translation>尚无结果。</translation>
    </message>
    <message>
        <source>This result has no head measures; recompute it (F5).</source>
        <translation>此结果没有注意力头度量；请重新计算（F5）。</translation>
    </message>
    <message>
        <source>No head measures in the reduced view: they need every weight of every query. Make L and S small enough for the maps to fit the memory limit to see them.</source>
        <translation>缩减视图中没有注意力头度量：它们需要每个查询的全部权重。请把 L 和 S 调小到注意力图能放进内存上限，才能看到它们。</translation>
    </message>
    <message>
        <source>Batch element %1 does not exist.</source>
        <translation>批元素 %1 不存在。</translation>
    </message>
    <message>
        <source>Batch element %1, mean over its queries</source>
        <translation>批元素 %1，对其所有查询取平均</translation>
    </message>
    <message>
        <source>entropy / log(open keys): 0 = one key, 1 = uniform</source>
        <translation>熵 / log(未屏蔽的键数)：0 = 只看一个键，1 = 均匀</translation>
    </message>
    <message>
        <source>confidence: the largest weight</source>
        <translation>置信度：最大的权重</translation>
    </message>
    <message>
        <source>sink share: weight on the first key</source>
        <translation>汇聚份额：第一个键上的权重</translation>
    </message>
    <message>
        <source>ablation: ‖Δ output‖ / ‖output‖ without the head</source>
        <translation>消融：去掉该头时的 ‖Δ output‖ / ‖output‖</translation>
    </message>
    <message>
        <source>numbers under the bars: head index</source>
        <translation>柱下的数字：头的序号</translation>
    </message>
    <message>
        <source>Computing the head measures of this result…</source>
        <translation>正在计算此结果的注意力头度量…</translation>
    </message>
    <message>
        <source>sent to nothing: weight on bias_k + zero</source>
        <translation>投向空无：bias_k + zero 上的权重</translation>
    </message>
    <message>
        <source>sent to nothing: weight on bias_k</source>
        <translation>投向空无：bias_k 上的权重</translation>
    </message>
    <message>
        <source>sent to nothing: weight on zero</source>
        <translation>投向空无：zero 上的权重</translation>
    </message>
    <message>
        <source>logit scale ‖W_Qᵀ W_K‖₂ / √hd: large predicts low entropy</source>
        <translation>logit 尺度 ‖W_Qᵀ W_K‖₂ / √hd：值大预示熵低</translation>
    </message>
    <message>
        <source>ablation: not available, a weights-only layer has no outputs (needs the layer&apos;s values and parameters)</source>
        <translation>消融：不可用，仅权重的层没有输出（需要该层的值和参数）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::HeadView</name>
    <message>
        <source>Coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <source>Per query and head, only the strongest lines that together carry at least this share of its weight</source>
        <translation>对每个查询和头，只画出合计至少占其权重这一比例的最强连线</translation>
    </message>
    <message>
        <source>Save the head view as shown to PNG, SVG or PDF</source>
        <translation>将当前显示的注意力头视图保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>h%1</translation>
    </message>
    <message>
        <source>Draw the lines of head %1 (its colour)</source>
        <translation>画出头 %1 的连线（它的颜色）</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;: NaN: every key of this query is masked, so softmax divides 0 by 0 (add_zero_attn or add_bias_kv add a key that is never masked)</source>
        <translation>查询 %1“%2”：NaN：该查询的所有键都被屏蔽，softmax 计算 0 除以 0（add_zero_attn 或 add_bias_kv 会追加一个永不被屏蔽的键）</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;: lines drawn: %3</source>
        <translation>查询 %1“%2”：画出的连线：%3</translation>
    </message>
    <message>
        <source>key bias_k (appended by add_bias_kv): a key only, it has no query row</source>
        <translation>键 bias_k（由 add_bias_kv 追加）：只是一个键，没有对应的查询行</translation>
    </message>
    <message>
        <source>key zero (all-zero key appended by add_zero_attn): a key only, it has no query row</source>
        <translation>键 zero（由 add_zero_attn 追加的全零键）：只是一个键，没有对应的查询行</translation>
    </message>
    <message>
        <source>key %1 &quot;%2&quot;: lines into it: %3</source>
        <translation>键 %1“%2”：指向它的连线：%3</translation>
    </message>
    <message>
        <source>The grid shows head %1 alone; the head view follows it</source>
        <translation>网格只显示头 %1；注意力头视图随之显示</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>hidden lines: %1</source>
        <translation>隐藏的连线：%1</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>heads %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>coverage %1 %</source>
        <translation>覆盖率 %1 %</translation>
    </message>
    <message>
        <source>(hidden lines: %1)</source>
        <translation>（隐藏的连线：%1）</translation>
    </message>
    <message>
        <source>cannot export a %1x%2 head view: the width must be 200 to 20000 pixels and the height 100 to 20000</source>
        <translation>无法导出 %1x%2 的注意力头视图：宽度须为 200 到 20000 像素，高度须为 100 到 20000</translation>
    </message>
    <message>
        <source>head view</source>
        <translation>注意力头视图</translation>
    </message>
    <message>
        <source>Pinned: key %1. Click it again or press Esc to release.</source>
        <translation>已固定：键 %1。再次点击它或按 Esc 取消固定。</translation>
    </message>
    <message>
        <source>the token views draw up to %1 queries and %1 keys; this result has L=%2 and S=%3. Use the grid, or shorten the sequences</source>
        <translation>词元视图最多画 %1 个查询和 %1 个键；此结果有 L=%2、S=%3。请使用网格，或缩短序列</translation>
    </message>
    <message>
        <source>Shares key/value head %1 with heads %2 to %3</source>
        <translation>与头 %2 至 %3 共享键/值头 %1</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::HeadViewDock</name>
    <message>
        <source>Head view</source>
        <translation>注意力头视图</translation>
    </message>
    <message>
        <source>H&amp;ead view</source>
        <translation>注意力头视图(&amp;E)</translation>
    </message>
    <message>
        <source>Show the head view: a line from each query to each key, as strong as its weight, one colour per head</source>
        <translation>显示注意力头视图：从每个查询到每个键画一条连线，深浅与权重相当，每个头一种颜色</translation>
    </message>
    <message>
        <source>Text view</source>
        <translation>文本视图</translation>
    </message>
    <message>
        <source>Te&amp;xt view</source>
        <translation>文本视图(&amp;X)</translation>
    </message>
    <message>
        <source>Show the text view: the key tokens as running text, shaded by the weight the hovered (or clicked) query gives them</source>
        <translation>显示文本视图：键词元排成连续文本，按悬停（或点击）的查询给它们的权重着色</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::HeatmapGrid</name>
    <message>
        <source>Out of date</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source> (showing the last computed result)</source>
        <translation>（显示的是上次计算的结果）</translation>
    </message>
    <message>
        <source>No result to show yet.</source>
        <translation>尚无可显示的结果。</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>embedding dimension</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>masked (-inf in the mask)</source>
        <translation>已屏蔽（掩码中为 -inf）</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>bias_k: key appended by add_bias_kv</source>
        <translation>bias_k：由 add_bias_kv 追加的键</translation>
    </message>
    <message>
        <source>zero: all-zero key appended by add_zero_attn</source>
        <translation>zero：由 add_zero_attn 追加的全零键</translation>
    </message>
    <message>
        <source>-max|v|</source>
        <translation>-max|v|</translation>
    </message>
    <message>
        <source>+max|v|</source>
        <translation>+max|v|</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source> (range of each map)</source>
        <translation>（各图各自的范围）</translation>
    </message>
    <message>
        <source>reduced %1x%2 -&gt; %3x%4 (%5)</source>
        <translation>已缩减 %1x%2 -&gt; %3x%4（%5）</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>query %1 “%2”</source>
        <translation>查询 %1“%2”</translation>
    </message>
    <message>
        <source>query %1</source>
        <translation>查询 %1</translation>
    </message>
    <message>
        <source>feature %1</source>
        <translation>特征 %1</translation>
    </message>
    <message>
        <source>dim %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <source>NaN: every key of this query is masked, so softmax divides 0 by 0 (add_zero_attn or add_bias_kv add a key that is never masked)</source>
        <translation>NaN：该查询的所有键都被屏蔽，softmax 计算 0 除以 0（add_zero_attn 或 add_bias_kv 会追加一个永不被屏蔽的键）</translation>
    </message>
    <message>
        <source>drawn as the %1 of %2x%3 cells; zoom in for single cells</source>
        <translation>按 %2x%3 个单元格的%1绘制；放大可查看单个单元格</translation>
    </message>
    <message>
        <source>NaN (a query with every key masked, or NaN/Inf in the tensors)</source>
        <translation>NaN（某个查询的所有键都被屏蔽，或张量中含 NaN/Inf）</translation>
    </message>
    <message>
        <source> (automatic range: 0..largest)</source>
        <translation>（自动范围：0 到最大值）</translation>
    </message>
    <message>
        <source>bias_k: its value is bias_v, so f = bias_v·W_O^h</source>
        <translation>bias_k：其值为 bias_v，因此 f = bias_v·W_O^h</translation>
    </message>
    <message>
        <source>zero: its value is 0, so it adds nothing (norm 0) however large its weight</source>
        <translation>zero：其值为 0，无论权重多大都不贡献任何内容（范数为 0）</translation>
    </message>
    <message>
        <source>bias_k: its value bias_v is what is zeroed</source>
        <translation>bias_k：被置零的是它的值 bias_v</translation>
    </message>
    <message>
        <source>zero: its value is already 0, so zeroing it changes nothing (0 by construction)</source>
        <translation>zero：其值本来就是 0，置零不改变任何东西（按构造为 0）</translation>
    </message>
    <message>
        <source>zero: its score is the mean weight sent to nothing (softmax₁&apos;s extra term)</source>
        <translation>zero：其分数是平均“发往虚无”的权重（softmax₁ 的额外项）</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>masked: every weight of the block is 0</source>
        <translation>已屏蔽：该块的每个权重都是 0</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <extracomment>hover text on a weight matrix: an axis name and a position (&quot;output feature 11&quot;)</extracomment>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ImagePicture</name>
    <message>
        <source>no prefix tokens</source>
        <translation>没有前缀词元</translation>
    </message>
    <message>
        <source>to %1: %2</source>
        <translation>给 %1：%2</translation>
    </message>
    <message>
        <source>to prefix %1: %2</source>
        <translation>给前缀 %1：%2</translation>
    </message>
    <message>
        <source>%1 (token %2): weight %3 from query %4 in %5 (%6 of the map&apos;s largest)</source>
        <translation>%1（token %2）：查询 %4 在 %5 中的权重 %3（为该图最大值的 %6）</translation>
    </message>
    <message>
        <source>weight %1</source>
        <translation>权重 %1</translation>
    </message>
    <message>
        <source>%1 · max %2</source>
        <translation>%1 · 最大 %2</translation>
    </message>
    <message>
        <source>image %1</source>
        <translation>图像 %1</translation>
    </message>
    <message>
        <source>%1 × %2 patches</source>
        <translation>%1 × %2 个图块</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ImageScene</name>
    <message>
        <source>this model file has no image (it is not format version 3); capture a vision transformer with mhaviz_capture.capture_model(model, name, image=...)</source>
        <translation>此模型文件没有图像（不是格式版本 3）；请用 mhaviz_capture.capture_model(model, name, image=...) 捕获视觉 Transformer</translation>
    </message>
    <message>
        <source>image %1 does not exist (0 to %2)</source>
        <translation>图像 %1 不存在（0 到 %2）</translation>
    </message>
    <message>
        <source>layer %1 does not attend over the image; these do: %2</source>
        <translation>第 %1 层不在图像上做注意力；以下层是：%2</translation>
    </message>
    <message>
        <source>head %1 does not exist (0 to %2, or mean)</source>
        <translation>头 %1 不存在（0 到 %2，或 mean）</translation>
    </message>
    <message>
        <source>token %1 does not exist (0 to %2)</source>
        <translation>token %1 不存在（0 到 %2）</translation>
    </message>
    <message>
        <source>%1 is not between 0 and 1</source>
        <translation>%1 不在 0 到 1 之间</translation>
    </message>
    <message>
        <source>%1 · query %2 · image %3</source>
        <translation>%1 · 查询 %2 · 图像 %3</translation>
    </message>
    <message>
        <source>nearest: exact patches</source>
        <translation>最近邻：精确图块</translation>
    </message>
    <message>
        <source>smooth: bilinear between patch centres</source>
        <translation>平滑：图块中心之间双线性插值</translation>
    </message>
    <message>
        <source>mean of %1 heads</source>
        <translation>%1 个头的平均</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>attention rollout over %1 layers</source>
        <translation>%1 层上的注意力展开（rollout）</translation>
    </message>
    <message>
        <source>the attention flow is not computed yet</source>
        <translation>注意力流尚未计算</translation>
    </message>
    <message>
        <source>attention flow over %1 layers</source>
        <translation>%1 层上的注意力流</translation>
    </message>
    <message>
        <source>%1 colour map</source>
        <translation>%1 色彩映射</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ImageView</name>
    <message>
        <source>One head</source>
        <translation>单个头</translation>
    </message>
    <message>
        <source>Mean of heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>Attention flow</source>
        <translation>注意力流</translation>
    </message>
    <message>
        <source>What the large picture shows; the small ones are always the heads of the layer</source>
        <translation>大图显示的内容；小图始终是该层的各个头</translation>
    </message>
    <message>
        <source>The head shown large</source>
        <translation>放大显示的头</translation>
    </message>
    <message>
        <source>The layer: its heads are the small pictures</source>
        <translation>层：其各个头即为小图</translation>
    </message>
    <message>
        <source>The image (batch element) of the capture</source>
        <translation>捕获中的图像（批次元素）</translation>
    </message>
    <message>
        <source>Colour map</source>
        <translation>色彩映射</translation>
    </message>
    <message>
        <source>Brighten</source>
        <translation>亮度</translation>
    </message>
    <message>
        <source>Colour map: the weights&apos; colours over the picture at the opacity; Brighten: the picture as bright as the weight</source>
        <translation>色彩映射：按不透明度将权重的颜色叠加在图像上；亮度：图像亮度与权重成正比</translation>
    </message>
    <message>
        <source>Opacity of the colour map over the picture</source>
        <translation>色彩映射叠加在图像上的不透明度</translation>
    </message>
    <message>
        <source>Nearest (exact patches)</source>
        <translation>最近邻（精确图块）</translation>
    </message>
    <message>
        <source>Smooth (bilinear)</source>
        <translation>平滑（双线性）</translation>
    </message>
    <message>
        <source>From patches to pixels: each patch one colour, or bilinear between patch centres</source>
        <translation>从图块到像素：每个图块一种颜色，或在图块中心之间双线性插值</translation>
    </message>
    <message>
        <source>First token</source>
        <translation>第一个词元</translation>
    </message>
    <message>
        <source>Make the first prefix token (the class token) the query again; click a patch to make it the query</source>
        <translation>重新以第一个前缀词元（类别词元）作为查询；点击图块可将其设为查询</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the picture as PNG, SVG or PDF</source>
        <translation>将图片保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>&amp;Show</source>
        <translation>显示(&amp;S)</translation>
    </message>
    <message>
        <source>H&amp;ead</source>
        <translation>头(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Layer</source>
        <translation>层(&amp;L)</translation>
    </message>
    <message>
        <source>I&amp;mage</source>
        <translation>图像(&amp;M)</translation>
    </message>
    <message>
        <source>O&amp;verlay</source>
        <translation>叠加(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Opacity</source>
        <translation>不透明度(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Upsampling</source>
        <translation>上采样(&amp;U)</translation>
    </message>
    <message>
        <source>Open a model file with an image (File &gt; Examples &gt; squares, or a capture made with capture_model(model, name, image=...)) to see its attention over the image.</source>
        <translation>打开带图像的模型文件（文件 &gt; 示例 &gt; squares，或用 capture_model(model, name, image=...) 捕获的文件），即可查看其在图像上的注意力。</translation>
    </message>
    <message>
        <source>%1 has no image: the Image view shows vision transformers captured with mhaviz_capture.capture_model(model, name, image=...).</source>
        <translation>%1 没有图像：图像视图显示用 mhaviz_capture.capture_model(model, name, image=...) 捕获的视觉 Transformer。</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>the Image view&apos;s attention flow</source>
        <translation>图像视图的注意力流</translation>
    </message>
    <message>
        <source>Computing the attention flow…</source>
        <translation>正在计算注意力流…</translation>
    </message>
    <message>
        <source>nothing to export: no image is shown</source>
        <translation>无可导出内容：未显示图像</translation>
    </message>
    <message>
        <source>Export the image view</source>
        <translation>导出图像视图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 绘图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Image view</source>
        <translation>图像视图</translation>
    </message>
    <message>
        <source>&amp;Image view</source>
        <translation>图像视图(&amp;I)</translation>
    </message>
    <message>
        <source>Show the image view: a vision transformer&apos;s attention over its image</source>
        <translation>显示图像视图：视觉 Transformer 在其图像上的注意力</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::InputsEditor</name>
    <message>
        <source>Inputs and weights</source>
        <translation>输入与权重</translation>
    </message>
    <message>
        <source>random normal</source>
        <translation>随机正态</translation>
    </message>
    <message>
        <source>one-hot / identity tokens</source>
        <translation>one-hot / 单位向量词元</translation>
    </message>
    <message>
        <source>sinusoidal positions</source>
        <translation>正弦位置编码</translation>
    </message>
    <message>
        <source>How query, key and value are generated: standard normal from the input seed; position p as the one-hot vector e_(p mod width); or Vaswani&apos;s sinusoidal position encoding plus random content.</source>
        <translation>query、key 和 value 的生成方式：由输入种子生成标准正态分布；位置 p 取 one-hot 向量 e_(p mod width)；或 Vaswani 的正弦位置编码加上随机内容。</translation>
    </message>
    <message>
        <source>Every generated input is multiplied by this.</source>
        <translation>每个生成的输入都乘以此值。</translation>
    </message>
    <message>
        <source>Sinusoidal: standard deviation of the random content added to the positions (0 = positions only).</source>
        <translation>正弦：加到位置编码上的随机内容的标准差（0 = 仅位置编码）。</translation>
    </message>
    <message>
        <source>self-attention (key = value = query)</source>
        <translation>自注意力（key = value = query）</translation>
    </message>
    <message>
        <source>Self-attention passes the same tensor as query, key and value (needs S = L and kdim = vdim = E); off: cross-attention with separate key and value.</source>
        <translation>自注意力把同一个张量同时作为 query、key 和 value 传入（需要 S = L 且 kdim = vdim = E）；关闭时为使用独立 key 和 value 的交叉注意力。</translation>
    </message>
    <message>
        <source>one label per query, e.g. The cat sat</source>
        <translation>每个查询一个标签，例如 The cat sat</translation>
    </message>
    <message>
        <source>Token labels of the L query positions, separated by spaces or commas; shown on the heatmap rows. Empty: position numbers.</source>
        <translation>L 个查询位置的词元标签，以空格或逗号分隔；显示在热力图的行上。留空：显示位置编号。</translation>
    </message>
    <message>
        <source>one label per key</source>
        <translation>每个键一个标签</translation>
    </message>
    <message>
        <source>Token labels of the S key positions; shown on the heatmap columns.</source>
        <translation>S 个键位置的词元标签；显示在热力图的列上。</translation>
    </message>
    <message>
        <source>PyTorch default init</source>
        <translation>PyTorch 默认初始化</translation>
    </message>
    <message>
        <source>identity projections</source>
        <translation>单位投影</translation>
    </message>
    <message>
        <source>PyTorch&apos;s _reset_parameters from the weights seed, or identity projections with zero biases (scores are then the raw similarity of the inputs). Load a state_dict with File &gt; Load tensors.</source>
        <translation>由权重种子按 PyTorch 的 _reset_parameters 初始化，或使用零偏置的单位投影（此时分数就是输入的原始相似度）。可通过“文件 &gt; 加载张量”加载 state_dict。</translation>
    </message>
    <message>
        <source>Every generated parameter is multiplied by this.</source>
        <translation>每个生成的参数都乘以此值。</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>scale</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>content scale</source>
        <translation>内容缩放</translation>
    </message>
    <message>
        <source>query labels</source>
        <translation>查询标签</translation>
    </message>
    <message>
        <source>key labels</source>
        <translation>键标签</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>weight scale</source>
        <translation>权重缩放</translation>
    </message>
    <message>
        <source>Set inputs kind to %1</source>
        <translation>将输入类型设为 %1</translation>
    </message>
    <message>
        <source>Set inputs scale</source>
        <translation>设置输入缩放</translation>
    </message>
    <message>
        <source>Set inputs content scale</source>
        <translation>设置输入内容缩放</translation>
    </message>
    <message>
        <source>Use self-attention</source>
        <translation>使用自注意力</translation>
    </message>
    <message>
        <source>Use cross-attention</source>
        <translation>使用交叉注意力</translation>
    </message>
    <message>
        <source>Set weights kind to %1</source>
        <translation>将权重类型设为 %1</translation>
    </message>
    <message>
        <source>Set weights scale</source>
        <translation>设置权重缩放</translation>
    </message>
    <message>
        <source>%1 %2 labels for %3 = %4: type exactly one label per position (spaces or commas between them), or none for position numbers.</source>
        <translation>%3 = %4 时有 %1 个%2标签：请为每个位置恰好输入一个标签（以空格或逗号分隔），或者留空以使用位置编号。</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Set token labels</source>
        <translation>设置词元标签</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::KeyPaddingEditor</name>
    <message>
        <source>key_padding_mask</source>
        <translation>key_padding_mask</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>valid length per element</source>
        <translation>每个元素的有效长度</translation>
    </message>
    <message>
        <source>padded keys per element</source>
        <translation>每个元素的填充键</translation>
    </message>
    <message>
        <source>key_padding_mask — forward(key_padding_mask=...): (N, S), True = this key of batch element n is padding and no query attends to it.</source>
        <translation>key_padding_mask — forward(key_padding_mask=...)：(N, S)，True = 批次元素 n 的该键是填充，任何查询都不会关注它。</translation>
    </message>
    <message>
        <source>bool (True = padded)</source>
        <translation>bool（True = 填充）</translation>
    </message>
    <message>
        <source>Valid keys of element n: keys j &gt;= length are padded. 0 pads every key.</source>
        <translation>元素 n 的有效键数：键 j &gt;= 长度时被填充。0 表示填充所有键。</translation>
    </message>
    <message>
        <source>Checked keys of element n are padded.</source>
        <translation>元素 n 中勾选的键被填充。</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>padded value</source>
        <translation>填充值</translation>
    </message>
    <message>
        <source>batch element</source>
        <translation>批次元素</translation>
    </message>
    <message>
        <source>valid length</source>
        <translation>有效长度</translation>
    </message>
    <message>
        <source>padded keys</source>
        <translation>填充键</translation>
    </message>
    <message>
        <source>Set key_padding_mask kind to %1</source>
        <translation>将 key_padding_mask 类型设为 %1</translation>
    </message>
    <message>
        <source>Set key_padding_mask dtype</source>
        <translation>设置 key_padding_mask 的 dtype</translation>
    </message>
    <message>
        <source>Set key_padding_mask masked_value</source>
        <translation>设置 key_padding_mask 的 masked_value</translation>
    </message>
    <message>
        <source>Set valid length of element %1 to %2</source>
        <translation>将元素 %1 的有效长度设为 %2</translation>
    </message>
    <message>
        <source>%1 key %2 of element %3</source>
        <translation>%1元素 %3 的键 %2</translation>
    </message>
    <message>
        <source>Pad</source>
        <translation>填充</translation>
    </message>
    <message>
        <source>Unpad</source>
        <translation>取消填充</translation>
    </message>
    <message>
        <source>key %1</source>
        <translation>键 %1</translation>
    </message>
    <message>
        <source>Batch element %1 is fully padded</source>
        <translation>批次元素 %1 被完全填充</translation>
    </message>
    <message>
        <source>Batch elements %1 are fully padded</source>
        <translation>批次元素 %1 被完全填充</translation>
    </message>
    <message>
        <source>%1, but %2 appends a key that cannot be padded, so its rows stay finite: every query attends only to that extra key.</source>
        <translation>%1，但 %2 追加了一个不能被填充的键，因此这些行保持有限：每个查询只关注这个额外的键。</translation>
    </message>
    <message>
        <source>%1: every key is hidden, so each query row&apos;s scores are all -inf and softmax divides 0 by 0 — its attention weights and output are NaN (PyTorch does the same). add_zero_attn or add_bias_kv would add a key that cannot be padded.</source>
        <translation>%1：所有键都被隐藏，因此每个查询行的分数全为 -inf，softmax 计算 0 除以 0 —— 其注意力权重和输出为 NaN（PyTorch 也是如此）。add_zero_attn 或 add_bias_kv 会追加一个不能被填充的键。</translation>
    </message>
    <message>
        <source>Batch element n whose padding is edited. It is the batch element the maps show: choosing one here shows it, and choosing one in the View group moves this box.</source>
        <translation>正在编辑其填充的批次元素 n。它就是热图显示的批次元素：在这里选择一个元素会显示它，在“视图”组中选择一个元素也会移动这个框。</translation>
    </message>
    <message>
        <source>= the batch element the maps show</source>
        <translation>= 热图显示的批次元素</translation>
    </message>
    <message>
        <source>%1, but add_bias_kv and add_zero_attn append two keys that cannot be padded, so its rows stay finite: every query attends only to bias_k and the zero key.</source>
        <translation>%1，但 add_bias_kv 和 add_zero_attn 追加了两个不能被填充的键，因此这些行保持有限：每个查询只关注 bias_k 和零键。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::MainWindow</name>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Next stage</source>
        <translation>下一阶段(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous stage</source>
        <translation>上一阶段(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Colormap</source>
        <translation>色图(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Parameter panel</source>
        <translation>参数面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Compute</source>
        <translation>计算(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Recompute</source>
        <translation>重新计算(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel computation</source>
        <translation>取消计算(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About mhaviz</source>
        <translation>关于 mhaviz(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Head measures</source>
        <translation>注意力头度量</translation>
    </message>
    <message>
        <source>&amp;Head measures</source>
        <translation>注意力头度量(&amp;H)</translation>
    </message>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>注意力头视图</translation>
    </message>
    <message>
        <source>Text view</source>
        <translation>文本视图</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::MaskDtypeCombo</name>
    <message>
        <source>float (added to scores)</source>
        <translation>浮点（加到分数上）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ModelCompare</name>
    <message>
        <source>%1, head %2: largest |B − A| %3, mean %4</source>
        <translation>%1，头 %2：最大 |B − A| %3，平均 %4</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>h%1</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>layer %1, step %2</source>
        <translation>第 %1 层，第 %2 步</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <source>Export B − A…</source>
        <translation>导出 B − A…</translation>
    </message>
    <message>
        <source>Compare with another file…</source>
        <translation>与另一个文件对比…</translation>
    </message>
    <message>
        <source>Close the comparison</source>
        <translation>关闭对比</translation>
    </message>
    <message>
        <source>A becomes B and B becomes A: the difference changes sign</source>
        <translation>A 变为 B，B 变为 A：差值改变符号</translation>
    </message>
    <message>
        <source>B − A: signed difference, diverging colours, range symmetric about 0</source>
        <translation>B − A：带符号的差值，发散配色，范围关于 0 对称</translation>
    </message>
    <message>
        <source>Largest |B − A| of each layer (rows) and head (columns), the largest in bold: click a cell to compare that map</source>
        <translation>每层（行）每头（列）的最大 |B − A|，最大者加粗：单击单元格即对比该热图</translation>
    </message>
    <message>
        <source>Compare the model with a file</source>
        <translation>将模型与文件对比</translation>
    </message>
    <message>
        <source>Model files and attention weights (*.json *.npz *.safetensors);;All files (*)</source>
        <translation>模型文件和注意力权重 (*.json *.npz *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1 with the tokens of %2: %3</source>
        <translation>无法用 %2 的词元读取 %1：%3</translation>
    </message>
    <message>
        <source>Cannot compare with %1: %2</source>
        <translation>无法与 %1 对比：%2</translation>
    </message>
    <message>
        <source>A could not be read: see the line above</source>
        <translation>无法读取 A：见上方说明</translation>
    </message>
    <message>
        <source>No difference shown: %1</source>
        <translation>不显示差值：%1</translation>
    </message>
    <message>
        <source>Layer %1 is not in both: A has %2 layers, B %3</source>
        <translation>第 %1 层并非两者都有：A 有 %2 层，B 有 %3 层</translation>
    </message>
    <message>
        <source>No B − A: see the line above</source>
        <translation>没有 B − A：见上方说明</translation>
    </message>
    <message>
        <source>Compare &gt; Compare the model with a file… compares the model open in the model view (B) with another file of the same layers, heads and lengths (A).</source>
        <translation>对比 &gt; 将模型与文件对比… 会把模型视图中打开的模型（B）与另一个层数、头数和长度都相同的文件（A）对比。</translation>
    </message>
    <message>
        <source>Open a model first (File &gt; Open): its layers are then compared with another model file&apos;s.</source>
        <translation>请先打开一个模型（文件 &gt; 打开）：然后即可将它的各层与另一个模型文件的各层对比。</translation>
    </message>
    <message>
        <source>Reading %1 and comparing %2 with it…</source>
        <translation>正在读取 %1 并将 %2 与之对比…</translation>
    </message>
    <message>
        <source>Largest |B − A| %1, at %2, head %3 (batch element %4); the table below has each layer&apos;s and head&apos;s.</source>
        <translation>最大 |B − A| 为 %1，位于%2的头 %3（批次元素 %4）；下表列出每层每头的最大值。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Left out of B − A: %1</source>
        <translation>未计入 B − A：%1</translation>
    </message>
    <message>
        <source>%1: %2 (open in the model view)</source>
        <translation>%1：%2（在模型视图中打开）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>%1, head %2, batch element %3</source>
        <translation>%1，头 %2，批次元素 %3</translation>
    </message>
    <message>
        <source>%1, every head, batch element %2</source>
        <translation>%1，所有头，批次元素 %2</translation>
    </message>
    <message>
        <source>Export B − A</source>
        <translation>导出 B − A</translation>
    </message>
    <message>
        <source>Images (*.png *.svg *.pdf)</source>
        <translation>图像 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>B − A, %1 — A: %2; B: %3</source>
        <translation>B − A，%1 — A：%2；B：%3</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ModelModeBar</name>
    <message>
        <source>Layers × heads</source>
        <translation>层 × 头</translation>
    </message>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>Attention flow</source>
        <translation>注意力流</translation>
    </message>
    <message>
        <source>Newest token per step</source>
        <translation>每步的最新词元</translation>
    </message>
    <message>
        <source>Abnar &amp; Zuidema&apos;s attention rollout: the self-attention layers&apos; head-averaged weights, with the residual, multiplied</source>
        <translation>Abnar 与 Zuidema 的注意力展开：将各自注意力层按头平均并加上残差后的权重依次相乘</translation>
    </message>
    <message>
        <source>Abnar &amp; Zuidema&apos;s attention flow: the largest flow from each output token to each input token through the layers (rows normalised)</source>
        <translation>Abnar 与 Zuidema 的注意力流：经过各层从每个输出词元到每个输入词元的最大流（按行归一化）</translation>
    </message>
    <message>
        <source>A generation capture: each layer&apos;s heads from the newest position of the chosen step, whose output gives the generated token</source>
        <translation>生成捕获：所选步骤中最新位置在每一层各头上的权重，该位置的输出给出生成的词元</translation>
    </message>
    <message>
        <source>Vie&amp;w</source>
        <translation>视图(&amp;W)</translation>
    </message>
    <message>
        <source>The generation step: arrows, Page Up/Down, Home and End move it</source>
        <translation>生成步骤：可用方向键、Page Up/Down、Home 和 End 移动</translation>
    </message>
    <message>
        <source>&amp;Generation step</source>
        <translation>生成步骤(&amp;G)</translation>
    </message>
    <message>
        <source>Sink threshold ε in (0, 1]: a head counts as a sink head when the first token&apos;s sink score (its mean weight over the queries) is above it (Gu et al. use 0.3)</source>
        <translation>汇聚阈值 ε，取值于 (0, 1]：当第一个词元的汇聚分数（各查询给它的平均权重）高于它时，该头计为汇聚头（Gu 等人使用 0.3）</translation>
    </message>
    <message>
        <source>Sin&amp;k ε</source>
        <translation>汇聚 ε(&amp;K)</translation>
    </message>
    <message>
        <source>Sink ε &quot;%1&quot; is not a number: give a weight share in (0, 1], e.g. 0.3</source>
        <translation>汇聚 ε“%1”不是数字：请给出 (0, 1] 中的权重份额，例如 0.3</translation>
    </message>
    <message>
        <source>%1 (the rate shown is still that of ε = %2)</source>
        <translation>%1（所示比率仍为 ε = %2 时的值）</translation>
    </message>
    <message>
        <source>Sink rate (Gu et al. 2024), the share of heads whose first-token sink score is above ε: %1 overall (%2 of %3 heads); per layer %4</source>
        <translation>汇聚率（Gu 等人 2024），即第一个词元的汇聚分数高于 ε 的头所占比例：总体 %1（%3 个头中的 %2 个）；各层 %4</translation>
    </message>
    <message>
        <source>%1 of 0–%2: position %3%4</source>
        <translation>第 %1 步（0–%2）：位置 %3%4</translation>
    </message>
    <message>
        <source> generates %1</source>
        <translation> 生成 %1</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ModelPages</name>
    <message>
        <source>&amp;Model view</source>
        <translation>模型视图(&amp;M)</translation>
    </message>
    <message>
        <source>Back to the model view</source>
        <translation>返回模型视图</translation>
    </message>
    <message>
        <source>%1 of %2, head %3</source>
        <translation>%2：%1，头 %3</translation>
    </message>
    <message>
        <source>Model “%1”: %2</source>
        <translation>模型“%1”：%2</translation>
    </message>
    <message>
        <source>reverses its input</source>
        <translation>反转输入</translation>
    </message>
    <message>
        <source>a copy head continues a repeated sequence</source>
        <translation>复制头延续重复的序列</translation>
    </message>
    <message>
        <source>generates step by step with a KV cache</source>
        <translation>借助 KV 缓存逐步生成</translation>
    </message>
    <message>
        <source>a vision transformer finds the small square</source>
        <translation>视觉 Transformer 找到小方块</translation>
    </message>
    <message>
        <source>%1 of %2, all heads</source>
        <translation>%2：%1，全部头</translation>
    </message>
    <message>
        <source> (edited)</source>
        <translation>（已修改）</translation>
    </message>
    <message>
        <source>%1 of %2 (stored weights)</source>
        <translation>%2 的 %1（存储的权重）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ModelView</name>
    <message>
        <source>&amp;Batch element</source>
        <translation>批次元素(&amp;B)</translation>
    </message>
    <message>
        <source>Reading and computing %1…</source>
        <translation>正在读取并计算 %1…</translation>
    </message>
    <message>
        <source>Cannot open the model: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>%1 by %2</source>
        <translation>%1，相差 %2</translation>
    </message>
    <message>
        <source>%1 attention layers, each computed by mhaviz from its captured inputs; every layer matches PyTorch&apos;s stored outputs (largest difference %2, tolerance %3).</source>
        <translation>共 %1 个注意力层，每层都由 mhaviz 根据捕获的输入重新计算；每一层都与 PyTorch 保存的输出一致（最大差异 %2，容差 %3）。</translation>
    </message>
    <message>
        <source>%1 of %2 layers DIFFER from PyTorch&apos;s stored outputs by more than %3: %4.</source>
        <translation>%2 个层中有 %1 个与 PyTorch 保存的输出相差超过 %3：%4。</translation>
    </message>
    <message>
        <source>Computing the attention flow…</source>
        <translation>正在计算注意力流…</translation>
    </message>
    <message>
        <source>the Attention flow view</source>
        <translation>“注意力流”视图</translation>
    </message>
    <message>
        <source>Computing the attention flow: %1 of %2 rows…</source>
        <translation>正在计算注意力流：第 %1 行，共 %2 行…</translation>
    </message>
    <message>
        <source>Cannot draw this view: %1</source>
        <translation>无法绘制此视图：%1</translation>
    </message>
    <message>
        <source>&amp;Open the layer</source>
        <translation>打开该层(&amp;O)</translation>
    </message>
    <message>
        <source>Click a map to show its layer in the docks; double-click it to open the layer in the full view.</source>
        <translation>点击一张热图，在各面板中显示它所在的层；双击则在完整视图中打开该层。</translation>
    </message>
    <message>
        <source>Open the selected layer in the full view, to work on it</source>
        <translation>在完整视图中打开选中的层，以便处理它</translation>
    </message>
    <message>
        <source>&amp;Open layer %1</source>
        <translation>打开第 %1 层(&amp;O)</translation>
    </message>
    <message>
        <source>%1, head %2: query %3 &quot;%4&quot;, key %5 &quot;%6&quot;, weight %7</source>
        <translation>%1，头 %2：查询 %3“%4”，键 %5“%6”，权重 %7</translation>
    </message>
    <message>
        <source>This file holds attention weights only, no queries, keys, values or parameters: cell arithmetic, value norms, value zeroing, the logit scale, recomputing a layer and the stage walk-through need them and are not available.</source>
        <translation>此文件只含注意力权重，没有查询、键、值或参数：单元格算式、值范数、值置零、logit 缩放、重新计算层和阶段演示都需要它们，因此不可用。</translation>
    </message>
    <message>
        <source>Click a map to show its layer in the head view and the text view. %1</source>
        <translation>单击一张图，在头视图和文本视图中显示其层。%1</translation>
    </message>
    <message>
        <source>%1 attention layers of stored weights (a weights-only file: nothing is recomputed or compared with PyTorch).</source>
        <translation>%1 个注意力层的存储权重（仅权重文件：不重新计算，也不与 PyTorch 比较）。</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>… and %1 more layers whose rows do not sum to 1 (mhaviz-cli model --stats lists them all).</source>
        <translation>……另有 %1 个层的行之和不为 1（mhaviz-cli model --stats 会全部列出）。</translation>
    </message>
    <message>
        <source>Open a model captured with mhaviz_capture (its index file, docs/capture-and-models.md) or a file of attention weights (.npz, .safetensors), or one of the small trained models that come with mhaviz:</source>
        <translation>打开用 mhaviz_capture 捕获的模型（其索引文件，见 docs/capture-and-models.md）或注意力权重文件 (.npz, .safetensors)，或 mhaviz 自带的训练好的小模型之一：</translation>
    </message>
    <message>
        <source>Open a model file…</source>
        <translation>打开模型文件…</translation>
    </message>
    <message>
        <source>No model open.</source>
        <translation>未打开模型。</translation>
    </message>
    <message>
        <source>The same as File &gt; Open (%1)</source>
        <translation>与“文件 &gt; 打开”（%1）相同</translation>
    </message>
    <message>
        <source> (File &gt; Open reads .npz and .safetensors files as attention weights; File &gt; Load tensors… takes tensors with PyTorch&apos;s names as the session&apos;s.)</source>
        <translation>（“文件 &gt; 打开”把 .npz 和 .safetensors 文件读作注意力权重；以 PyTorch 名称命名的张量请用“文件 &gt; 加载张量…”载入当前会话。）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ParameterPanel</name>
    <message>
        <source>Set %1 to %2</source>
        <translation>将 %1 设为 %2</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>L (target length) — rows of query: (L, N, E), or (N, L, E) with batch_first. Each map has L rows, one per query.</source>
        <translation>L（目标序列长度）— query 的行数：(L, N, E)，使用 batch_first 时为 (N, L, E)。每张图有 L 行，每个查询一行。</translation>
    </message>
    <message>
        <source>S (source length) — rows of key (S, N, kdim) and value (S, N, vdim). Each map has S columns, plus bias_k / zero when those are on.</source>
        <translation>S（源序列长度）— key (S, N, kdim) 和 value (S, N, vdim) 的行数。每张图有 S 列，开启 bias_k / zero 时另加相应的列。</translation>
    </message>
    <message>
        <source>N (batch size) — batch dimension of query, key and value. Every batch element has its own maps; pick the one shown under View.</source>
        <translation>N（批次大小）— query、key 和 value 的批次维度。每个批次元素都有自己的注意力图；在“视图”中选择要显示的元素。</translation>
    </message>
    <message>
        <source>unbatched</source>
        <translation>无批次</translation>
    </message>
    <message>
        <source>Unbatched input — pass 2-D query (L, E), key (S, kdim) and value (S, vdim), as PyTorch allows; treated as N = 1 and squeezed back. batch_first is ignored then.</source>
        <translation>无批次输入 — 按 PyTorch 允许的方式传入二维的 query (L, E)、key (S, kdim) 和 value (S, vdim)；按 N = 1 处理后再压缩回去。此时忽略 batch_first。</translation>
    </message>
    <message>
        <source>embed_dim — nn.MultiheadAttention(embed_dim): model width E. Must be divisible by num_heads; each head gets head_dim = E / H features.</source>
        <translation>embed_dim — nn.MultiheadAttention(embed_dim)：模型宽度 E。必须能被 num_heads 整除；每个头得到 head_dim = E / H 个特征。</translation>
    </message>
    <message>
        <source>num_heads — nn.MultiheadAttention(num_heads): number of parallel heads H. The grid shows one map per head, plus their average.</source>
        <translation>num_heads — nn.MultiheadAttention(num_heads)：并行头的数量 H。网格中每个头显示一张图，另加它们的平均值。</translation>
    </message>
    <message>
        <source>kdim — nn.MultiheadAttention(kdim=...): feature size of key. With kdim and vdim equal to E the projections are packed in in_proj_weight; otherwise k_proj_weight is (E, kdim).</source>
        <translation>kdim — nn.MultiheadAttention(kdim=...)：key 的特征大小。当 kdim 和 vdim 都等于 E 时，投影打包在 in_proj_weight 中；否则 k_proj_weight 为 (E, kdim)。</translation>
    </message>
    <message>
        <source>= E</source>
        <translation>= E</translation>
    </message>
    <message>
        <source>kdim=None — key has embed_dim features (PyTorch&apos;s default).</source>
        <translation>kdim=None — key 有 embed_dim 个特征（PyTorch 的默认值）。</translation>
    </message>
    <message>
        <source>vdim — nn.MultiheadAttention(vdim=...): feature size of value. With kdim and vdim equal to E the projections are packed in in_proj_weight; otherwise v_proj_weight is (E, vdim).</source>
        <translation>vdim — nn.MultiheadAttention(vdim=...)：value 的特征大小。当 kdim 和 vdim 都等于 E 时，投影打包在 in_proj_weight 中；否则 v_proj_weight 为 (E, vdim)。</translation>
    </message>
    <message>
        <source>vdim=None — value has embed_dim features (PyTorch&apos;s default).</source>
        <translation>vdim=None — value 有 embed_dim 个特征（PyTorch 的默认值）。</translation>
    </message>
    <message>
        <source>L (tgt_len)</source>
        <translation>L (tgt_len)</translation>
    </message>
    <message>
        <source>S (src_len)</source>
        <translation>S (src_len)</translation>
    </message>
    <message>
        <source>N (batch)</source>
        <translation>N（批次）</translation>
    </message>
    <message>
        <source>E (embed_dim)</source>
        <translation>E (embed_dim)</translation>
    </message>
    <message>
        <source>H (num_heads)</source>
        <translation>H (num_heads)</translation>
    </message>
    <message>
        <source>kdim</source>
        <translation>kdim</translation>
    </message>
    <message>
        <source>vdim</source>
        <translation>vdim</translation>
    </message>
    <message>
        <source>Use unbatched input</source>
        <translation>使用无批次输入</translation>
    </message>
    <message>
        <source>Use batched input (N = %1)</source>
        <translation>使用批次输入（N = %1）</translation>
    </message>
    <message>
        <source>Set kdim to None</source>
        <translation>将 kdim 设为 None</translation>
    </message>
    <message>
        <source>Set kdim to %1</source>
        <translation>将 kdim 设为 %1</translation>
    </message>
    <message>
        <source>Set vdim to None</source>
        <translation>将 vdim 设为 None</translation>
    </message>
    <message>
        <source>Set vdim to %1</source>
        <translation>将 vdim 设为 %1</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>bias — nn.MultiheadAttention(bias=True): adds in_proj_bias and out_proj.bias (initialised to zero, as PyTorch does).</source>
        <translation>bias — nn.MultiheadAttention(bias=True)：添加 in_proj_bias 和 out_proj.bias（与 PyTorch 一样初始化为零）。</translation>
    </message>
    <message>
        <source>batch_first — nn.MultiheadAttention(batch_first=True): query, key, value and attn_output are (N, L, E) instead of (L, N, E). The maps do not change; attn_output_weights are never transposed.</source>
        <translation>batch_first — nn.MultiheadAttention(batch_first=True)：query、key、value 和 attn_output 的形状为 (N, L, E) 而不是 (L, N, E)。注意力图不变；attn_output_weights 永远不会被转置。</translation>
    </message>
    <message>
        <source>dropout — nn.MultiheadAttention(dropout=p): probability of zeroing an attention weight; kept weights are scaled by 1/(1-p). Applied only in training mode.</source>
        <translation>dropout — nn.MultiheadAttention(dropout=p)：将注意力权重置零的概率；保留的权重乘以 1/(1-p)。仅在训练模式下生效。</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练模式</translation>
    </message>
    <message>
        <source>module.train() / module.eval() — dropout is applied only in training mode. The mask comes from the dropout seed (torch&apos;s random stream is not reproduced).</source>
        <translation>module.train() / module.eval() — dropout 仅在训练模式下生效。dropout 掩码由 dropout 种子生成（不复现 torch 的随机数流）。</translation>
    </message>
    <message>
        <source>dropout</source>
        <translation>dropout</translation>
    </message>
    <message>
        <source>Set dropout to %1</source>
        <translation>将 dropout 设为 %1</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向计算</translation>
    </message>
    <message>
        <source>grad enabled</source>
        <translation>启用梯度</translation>
    </message>
    <message>
        <source>grad mode — the grad mode around the call. With grad disabled, in eval mode (training off), for batched self-attention with batch_first, PyTorch 2.x takes its fast path, which gives NaN for a fully masked query even with need_weights off.</source>
        <translation>梯度模式 — 调用时的梯度模式。梯度关闭、处于 eval 模式（training 关闭）、且为 batch_first 的批量自注意力时，PyTorch 2.x 会走其快速路径；即使 need_weights 关闭，该路径对完全被遮蔽的查询也会给出 NaN。</translation>
    </message>
    <message>
        <source>grad mode</source>
        <translation>梯度模式</translation>
    </message>
    <message>
        <source>Set grad mode to %1</source>
        <translation>将梯度模式设为 %1</translation>
    </message>
    <message>
        <source>need_weights — forward(need_weights=True): return attn_output_weights as the second value. The grid shows the weights either way.</source>
        <translation>need_weights — forward(need_weights=True)：将 attn_output_weights 作为第二个返回值。无论如何网格都会显示权重。</translation>
    </message>
    <message>
        <source>average_attn_weights — forward(average_attn_weights=True): the returned weights are the mean over heads (N, L, S) instead of per head (N, H, L, S). The grid&apos;s &quot;average&quot; map shows that mean.</source>
        <translation>average_attn_weights — forward(average_attn_weights=True)：返回的权重是各头的平均值 (N, L, S)，而不是每个头的权重 (N, H, L, S)。网格中的“平均”图显示的就是该平均值。</translation>
    </message>
    <message>
        <source>Data type and seeds</source>
        <translation>数据类型与随机种子</translation>
    </message>
    <message>
        <source>dtype — torch.float32 or torch.float64 for the parameters, the inputs and every intermediate.</source>
        <translation>dtype — 参数、输入和所有中间结果使用 torch.float32 或 torch.float64。</translation>
    </message>
    <message>
        <source>Weights seed — draws the parameters with PyTorch&apos;s initialisation scheme (xavier_uniform in_proj, kaiming_uniform out_proj, xavier_normal bias_k/bias_v; the generator is mhaviz&apos;s own, not torch&apos;s).</source>
        <translation>权重种子 — 按 PyTorch 的初始化方案生成参数（in_proj 用 xavier_uniform，out_proj 用 kaiming_uniform，bias_k/bias_v 用 xavier_normal；随机数生成器是 mhaviz 自己的，而不是 torch 的）。</translation>
    </message>
    <message>
        <source>Input seed — draws the standard-normal query, key and value. auto = weights seed + 1.</source>
        <translation>输入种子 — 生成服从标准正态分布的 query、key 和 value。auto = 权重种子 + 1。</translation>
    </message>
    <message>
        <source>auto (seed + 1)</source>
        <translation>auto（种子 + 1）</translation>
    </message>
    <message>
        <source>Dropout seed — draws the dropout mask in training mode. auto = weights seed + 2.</source>
        <translation>Dropout 种子 — 在训练模式下生成 dropout 掩码。auto = 权重种子 + 2。</translation>
    </message>
    <message>
        <source>auto (seed + 2)</source>
        <translation>auto（种子 + 2）</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>weights seed</source>
        <translation>权重种子</translation>
    </message>
    <message>
        <source>input seed</source>
        <translation>输入种子</translation>
    </message>
    <message>
        <source>dropout seed</source>
        <translation>dropout 种子</translation>
    </message>
    <message>
        <source>Set dtype to torch.%1</source>
        <translation>将 dtype 设为 torch.%1</translation>
    </message>
    <message>
        <source> At most %1 here; the memory limit usually stops earlier.</source>
        <translation> 此处最大为 %1；内存上限通常会更早限制。</translation>
    </message>
    <message>
        <source>PyTorch 2.x</source>
        <translation>PyTorch 2.x</translation>
    </message>
    <message>
        <source>PyTorch 1.13</source>
        <translation>PyTorch 1.13</translation>
    </message>
    <message>
        <source>semantics</source>
        <translation>语义版本</translation>
    </message>
    <message>
        <source>Follow %1</source>
        <translation>遵循 %1</translation>
    </message>
    <message>
        <source>add_zero_attn — nn.MultiheadAttention(add_zero_attn=True): appends an all-zero key and value after the head split; its score is exactly 0, so no query row can be fully masked. Its weight is the &quot;attention to nothing&quot; of softmax₁ (Miller 2023) and of a sink logit fixed at 0 (gpt-oss): the share a query sends nowhere, since the zero value adds nothing to the output.</source>
        <translation>add_zero_attn — nn.MultiheadAttention(add_zero_attn=True)：在拆分头之后追加全零的 key 和 value；它的分数恰好为 0，因此任何查询行都不会被完全屏蔽。它的权重就是 softmax₁（Miller 2023）以及固定为 0 的汇聚 logit（gpt-oss）中的“对空无的注意力”：查询没有投向任何位置的份额，因为零值不会给输出增加任何内容。</translation>
    </message>
    <message>
        <source>add_bias_kv — nn.MultiheadAttention(add_bias_kv=True): appends learned bias_k / bias_v rows to key and value at the end, after the in-projection (not prepended like a [CLS] token); every query gets one extra column &quot;bias_k&quot; that is never masked. bias_k is a key only: it has no query row, so it never attends, not even to itself. It acts as a learned &quot;null&quot; key, an attention sink that takes the weight a query gives none of the source keys.</source>
        <translation>add_bias_kv — nn.MultiheadAttention(add_bias_kv=True)：在输入投影之后，把可学习的 bias_k / bias_v 行追加到 key 和 value 的末尾（而不是像 [CLS] 标记那样前置）；每个查询多出一列永不被屏蔽的“bias_k”。bias_k 只是一个键：它没有查询行，因此从不关注任何键，连它自己也不关注。它起到一个可学习的“空”（null）键的作用，即一个注意力汇点（attention sink），接收查询没有给任何源键的权重。</translation>
    </message>
    <message>
        <source>semantics — which PyTorch version&apos;s behaviour to follow where versions differ: a fully masked query with need_weights off (2.x: weights 0 on its SDPA path, NaN on its fast path; 1.13: NaN), a bool attn_mask with a float key_padding_mask (1.13: any non-zero padding value masks), uint8 masks (1.13: used as bool, with a warning), is_causal (absent in 1.13).</source>
        <translation>semantics — 在版本行为不同之处遵循哪个 PyTorch 版本：need_weights 关闭时被完全遮蔽的查询（2.x：SDPA 路径上权重为 0，快速路径上为 NaN；1.13：NaN）、bool 型 attn_mask 与浮点型 key_padding_mask 同用（1.13：任何非零填充值都会遮蔽）、uint8 掩码（1.13：按 bool 使用并给出警告）、is_causal（1.13 中不存在）。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::PictureFile</name>
    <message>
        <source>cannot export to &apos;%1&apos;: unknown image type &apos;%2&apos;; use a file name ending in .png, .svg or .pdf</source>
        <translation>无法导出到“%1”：未知的图像类型“%2”；请使用以 .png、.svg 或 .pdf 结尾的文件名</translation>
    </message>
    <message>
        <source>(no extension)</source>
        <translation>（无扩展名）</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the folder &apos;%2&apos; does not exist; create it or choose another folder</source>
        <translation>无法写入“%1”：文件夹“%2”不存在；请创建该文件夹或选择其他文件夹</translation>
    </message>
    <message>
        <source>cannot export a %1x%2 picture: each side must be 1 to 20000 pixels</source>
        <translation>无法导出 %1x%2 的图片：每条边须为 1 到 20000 像素</translation>
    </message>
    <message>
        <source>cannot export with scale %1: use a scale above 0 and at most 16</source>
        <translation>无法以缩放 %1 导出：请使用大于 0 且不超过 16 的缩放</translation>
    </message>
    <message>
        <source>image export needs a QApplication (run with a display or QT_QPA_PLATFORM=offscreen)</source>
        <translation>图像导出需要 QApplication（请在有显示器的环境下运行，或设置 QT_QPA_PLATFORM=offscreen）</translation>
    </message>
    <message>
        <source>cannot write &apos;%1&apos;: the %2 file could not be written (disk full or no permission?)</source>
        <translation>无法写入“%1”：无法写入该 %2 文件（磁盘已满或没有权限？）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ScreenPresenter</name>
    <message>
        <source>Cannot draw: %1</source>
        <translation>无法绘制：%1</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::SessionFile</name>
    <message>
        <source>%1 must be one of %2.</source>
        <translation>%1 必须是以下之一：%2。</translation>
    </message>
    <message>
        <source>%1 must be a whole number.</source>
        <translation>%1 必须是整数。</translation>
    </message>
    <message>
        <source>%1 must be true or false.</source>
        <translation>%1 必须是 true 或 false。</translation>
    </message>
    <message>
        <source>%1: &quot;view&quot; must be an object.</source>
        <translation>%1：“view”必须是一个对象。</translation>
    </message>
    <message>
        <source>%1: view.batch must be 0 or more.</source>
        <translation>%1：view.batch 必须大于或等于 0。</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder to embed tensors.</source>
        <translation>无法创建用于嵌入张量的临时文件夹。</translation>
    </message>
    <message>
        <source>Cannot read back the tensors to embed: %1</source>
        <translation>无法读回要嵌入的张量：%1</translation>
    </message>
    <message>
        <source>%1: &quot;tensors&quot; must be {&quot;file&quot;: path} or {&quot;npz_base64&quot;: data}.</source>
        <translation>%1：“tensors”必须是 {&quot;file&quot;: 路径} 或 {&quot;npz_base64&quot;: 数据}。</translation>
    </message>
    <message>
        <source>%1: npz_base64 must be a string.</source>
        <translation>%1：npz_base64 必须是字符串。</translation>
    </message>
    <message>
        <source>%1: the embedded tensors are not valid base64.</source>
        <translation>%1：嵌入的张量不是有效的 base64。</translation>
    </message>
    <message>
        <source>%1: tensors.file must be a string.</source>
        <translation>%1：tensors.file 必须是字符串。</translation>
    </message>
    <message>
        <source>%1 refers to the tensors file %2, which does not exist. Put it beside the session (or at that path) and open the session again.</source>
        <translation>%1 引用的张量文件 %2 不存在。请把它放在会话文件旁边（或该路径处），然后重新打开会话。</translation>
    </message>
    <message>
        <source>%1 is damaged and cannot be opened: %2. Fix the file or open another one.</source>
        <translation>%1 已损坏，无法打开：%2。请修复该文件或打开其他文件。</translation>
    </message>
    <message>
        <source>%1 is not an mhaviz session or configuration: its top level is not a JSON object.</source>
        <translation>%1 不是 mhaviz 会话或配置文件：其顶层不是 JSON 对象。</translation>
    </message>
    <message>
        <source>%1 is not an mhaviz session: &quot;format&quot; must be &quot;%2&quot;.</source>
        <translation>%1 不是 mhaviz 会话：“format”必须是“%2”。</translation>
    </message>
    <message>
        <source>%1 has no valid &quot;version&quot; (a whole number from 1). The file is damaged.</source>
        <translation>%1 没有有效的“version”（从 1 开始的整数）。该文件已损坏。</translation>
    </message>
    <message>
        <source>%1 was written by a newer mhaviz (format version %2; this mhaviz reads up to %3). Update mhaviz to open it.</source>
        <translation>%1 由更新版本的 mhaviz 写入（格式版本 %2；此 mhaviz 最高只能读取版本 %3）。请更新 mhaviz 后再打开。</translation>
    </message>
    <message>
        <source>%1 has no &quot;config&quot; object.</source>
        <translation>%1 没有“config”对象。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2.</source>
        <translation>无法打开 %1：%2。</translation>
    </message>
    <message>
        <source>Cannot save %1: %2. Choose another folder or file name.</source>
        <translation>无法保存 %1：%2。请选择其他文件夹或文件名。</translation>
    </message>
    <message>
        <source>%1 is not a view setting (known: stage, batch, colormap, perHeadScale, autoRange, soloHead, showAverage, reduce).</source>
        <translation>%1 不是视图设置（已知的有：stage、batch、colormap、perHeadScale、autoRange、soloHead、showAverage、reduce）。</translation>
    </message>
    <message>
        <source>%1: &quot;compare&quot; must be {&quot;a_config&quot;: {...}, &quot;a_tensors&quot;: null | &quot;same&quot; | {&quot;npz_base64&quot;: ...}}.</source>
        <translation>%1：“compare”必须是 {&quot;a_config&quot;: {...}, &quot;a_tensors&quot;: null | &quot;same&quot; | {&quot;npz_base64&quot;: ...}}。</translation>
    </message>
    <message>
        <source>%1: unknown key &quot;%2&quot; (known: format, version, config, view, tensors, compare, workspace).</source>
        <translation>%1：未知的键“%2”（已知：format、version、config、view、tensors、compare、workspace）。</translation>
    </message>
    <message>
        <source>%1: &quot;workspace&quot; must be a name such as &quot;explore&quot;.</source>
        <translation>%1：“workspace”必须是一个名称，例如“explore”。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::SessionFiles</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Load tensors</source>
        <translation>加载张量</translation>
    </message>
    <message>
        <source>Computing with the tensors of %1</source>
        <translation>正在使用 %1 中的张量计算</translation>
    </message>
    <message>
        <source>Open Recent</source>
        <translation>最近打开</translation>
    </message>
    <message>
        <source>These files no longer exist and were removed from the list:
%1</source>
        <translation>以下文件已不存在，已从列表中移除：
%1</translation>
    </message>
    <message>
        <source>Tensors with PyTorch names (*.npz *.safetensors)</source>
        <translation>按 PyTorch 命名的张量 (*.npz *.safetensors)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Load tensors…</source>
        <translation>加载张量(&amp;L)…</translation>
    </message>
    <message>
        <source>Opened the example “%1”</source>
        <translation>已打开示例“%1”</translation>
    </message>
    <message>
        <source>New session with the defaults of a configuration file: L = %1, S = %2, N = %3, E = %4, H = %5, weights as PyTorch initialises them, random inputs.</source>
        <translation>使用配置文件默认值的新会话：L = %1，S = %2，N = %3，E = %4，H = %5，权重按 PyTorch 的方式初始化，输入为随机值。</translation>
    </message>
    <message>
        <source>Sessions, configurations, models and attention weights (*.json *.npz *.safetensors);;mhaviz session (*.mhaviz.json);;Attention weights (*.npz *.safetensors)</source>
        <translation>会话、配置、模型和注意力权重 (*.json *.npz *.safetensors);;mhaviz 会话 (*.mhaviz.json);;注意力权重 (*.npz *.safetensors)</translation>
    </message>
    <message>
        <source>Open session, configuration, model or attention weights</source>
        <translation>打开会话、配置、模型或注意力权重</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ShapeFlowDock</name>
    <message>
        <source>Shape flow</source>
        <translation>形状流</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Symbolic</source>
        <translation>符号形状</translation>
    </message>
    <message>
        <source>Concrete</source>
        <translation>具体形状</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::Stage</name>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>weights before dropout</source>
        <translation>dropout 之前的权重</translation>
    </message>
    <message>
        <source>raw scores</source>
        <translation>原始分数</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>q</source>
        <translation>q</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>v</source>
        <translation>v</translation>
    </message>
    <message>
        <source>head output</source>
        <translation>头输出</translation>
    </message>
    <message>
        <source>merged</source>
        <translation>合并各头</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>in_proj_weight</source>
        <translation>in_proj_weight</translation>
    </message>
    <message>
        <source>out_proj.weight</source>
        <translation>out_proj.weight</translation>
    </message>
    <message>
        <source>soft-capped scores</source>
        <translation>软上限分数</translation>
    </message>
    <message>
        <source>value norms</source>
        <translation>值加权范数</translation>
    </message>
    <message>
        <source>value zeroing</source>
        <translation>值置零</translation>
    </message>
    <message>
        <source>sink scores</source>
        <translation>汇聚分数</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::StageText</name>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>raw score</source>
        <translation>原始分数</translation>
    </message>
    <message>
        <source>mask term</source>
        <translation>掩码项</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>average over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>the result&apos;s %1 tensor has shape %2, expected %3; recompute the result</source>
        <translation>结果中的%1张量形状为 %2，应为 %3；请重新计算结果</translation>
    </message>
    <message>
        <source>batch element %1 does not exist: the result has %2 (choose 0..%3)</source>
        <translation>批次元素 %1 不存在：结果共有 %2 个（请选择 0..%3）</translation>
    </message>
    <message>
        <source>heads concatenated (before out_proj)</source>
        <translation>各头拼接（out_proj 之前）</translation>
    </message>
    <message>
        <source>out_proj output</source>
        <translation>out_proj 输出</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>the parameters have no %1; recompute the result</source>
        <translation>参数中没有 %1；请重新计算结果</translation>
    </message>
    <message>
        <source>weight entry</source>
        <translation>权重元素</translation>
    </message>
    <message>
        <source>out_proj.weight (E, E)</source>
        <translation>out_proj.weight (E, E)</translation>
    </message>
    <message>
        <source>%1 = in_proj_weight rows %2-%3 (head %4)</source>
        <translation>%1 = in_proj_weight 第 %2-%3 行（头 %4）</translation>
    </message>
    <message>
        <source>%1 rows %2-%3 (head %4)</source>
        <translation>%1 第 %2-%3 行（头 %4）</translation>
    </message>
    <message>
        <source>cell (n=%1, h=%2, i=%3, j=%4) is outside the result; click a cell of the current maps</source>
        <translation>单元格 (n=%1, h=%2, i=%3, j=%4) 不在结果范围内；请点击当前热力图中的单元格</translation>
    </message>
    <message>
        <source>capped score</source>
        <translation>软上限后的分数</translation>
    </message>
    <message>
        <source>exact cells of queries %1-%2, keys %3-%4</source>
        <translation>精确单元：查询 %1-%2，键 %3-%4</translation>
    </message>
    <message>
        <source>reduced: block max of %1x%2 cells</source>
        <translation>已缩减：每 %1x%2 个单元块取最大值</translation>
    </message>
    <message>
        <source>reduced: block mean of %1x%2 cells</source>
        <translation>已缩减：每 %1x%2 个单元块取均值</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>B − A (range symmetric about 0)</source>
        <translation>B − A（范围关于 0 对称）</translation>
    </message>
    <message>
        <source>value norms are computed for up to %1 weight cells (N*H*L*S&apos;); this result has %2. Reduce L, S, N or the number of heads to see them</source>
        <translation>值加权范数最多计算 %1 个权重单元（N*H*L*S&apos;）；此结果有 %2 个。请减小 L、S、N 或头数后再查看</translation>
    </message>
    <message>
        <source>this result has no value norms; recompute it</source>
        <translation>此结果没有值加权范数；请重新计算</translation>
    </message>
    <message>
        <source>sum over heads</source>
        <translation>各头之和</translation>
    </message>
    <message>
        <source>value-weighted norm ‖α·f(x)‖</source>
        <translation>值加权范数 ‖α·f(x)‖</translation>
    </message>
    <message>
        <source>zoomed: block max of %1x%2 cells of queries %3-%4, keys %5-%6</source>
        <translation>已放大：查询 %3-%4、键 %5-%6，每 %1x%2 个单元块取最大值</translation>
    </message>
    <message>
        <source>zoomed: block mean of %1x%2 cells of queries %3-%4, keys %5-%6</source>
        <translation>已放大：查询 %3-%4、键 %5-%6，每 %1x%2 个单元块取均值</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>features</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>key rows</source>
        <translation>键行</translation>
    </message>
    <message>
        <source>key columns</source>
        <translation>键列</translation>
    </message>
    <message>
        <source>the bias_k key</source>
        <translation>bias_k 键</translation>
    </message>
    <message>
        <source>the zero key (add_zero_attn)</source>
        <translation>零键（add_zero_attn）</translation>
    </message>
    <message>
        <source>key %1</source>
        <translation>键 %1</translation>
    </message>
    <message>
        <source>A and B show different things along the %1</source>
        <translation>A 与 B 在%1方向上显示的内容不同</translation>
    </message>
    <message>
        <source>A has %1 %2, B has %3</source>
        <translation>A 有 %1 个%2，B 有 %3 个</translation>
    </message>
    <message>
        <source>A has %1 source keys, B has %2 (src_len or static_k differ)</source>
        <translation>A 有 %1 个源键，B 有 %2 个（src_len 或 static_k 不同）</translation>
    </message>
    <message>
        <source>A has %1 heads, B has %2 (num_heads differ)</source>
        <translation>A 有 %1 个头，B 有 %2 个（num_heads 不同）</translation>
    </message>
    <message>
        <source>%1 is only in A</source>
        <translation>%1只在 A 中</translation>
    </message>
    <message>
        <source>%1 is only in B</source>
        <translation>%1只在 B 中</translation>
    </message>
    <message>
        <source>value zeroing is computed for up to %1 weight cells (N*H*L*S&apos;); this result has %2. Reduce L, S, N or the number of heads to see it</source>
        <translation>值置零最多计算 %1 个权重单元（N*H*L*S&apos;）；此结果有 %2 个。请减小 L、S、N 或头数后再查看</translation>
    </message>
    <message>
        <source>this result has no value zeroing; recompute it</source>
        <translation>此结果没有值置零；请重新计算</translation>
    </message>
    <message>
        <source>cosine distance 1 − cos(o, o′)</source>
        <translation>余弦距离 1 − cos(o, o′)</translation>
    </message>
    <message>
        <source>relative L2 ‖o′ − o‖ / ‖o‖</source>
        <translation>相对 L2 ‖o′ − o‖ / ‖o‖</translation>
    </message>
    <message>
        <source>change of the output row when v_j is zeroed</source>
        <translation>v_j 置零时输出行的变化</translation>
    </message>
    <message>
        <source>this result has no sink scores; recompute it</source>
        <translation>此结果没有汇聚分数；请重新计算</translation>
    </message>
    <message>
        <source>the result&apos;s sink scores do not fit it; recompute it</source>
        <translation>结果的汇聚分数与之不符；请重新计算</translation>
    </message>
    <message>
        <source>mean over heads</source>
        <translation>对各头取平均</translation>
    </message>
    <message>
        <source>sink score: mean weight over the queries</source>
        <translation>汇聚分数：各查询上的平均权重</translation>
    </message>
    <message>
        <source>every head</source>
        <translation>每个头</translation>
    </message>
    <message>
        <source>NaN from the inputs or parameters, not from a mask</source>
        <translation>NaN 来自输入或参数，而不是来自掩码</translation>
    </message>
    <message>
        <source>not from a mask: %1&apos;s inputs or parameters hold NaN or Inf</source>
        <translation>不是来自掩码：%1 的输入或参数含有 NaN 或 Inf</translation>
    </message>
    <message>
        <source>every key of these queries is masked in %1 but not in %2 (their masks differ), so %1&apos;s softmax divides 0 by 0</source>
        <translation>这些查询的所有键在 %1 中都被屏蔽，在 %2 中则不然（两者的掩码不同），因此 %1 的 softmax 计算 0 除以 0</translation>
    </message>
    <message>
        <source>every key of these queries is masked in both</source>
        <translation>这些查询的所有键在两边都被屏蔽</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>%1 maps</source>
        <translation>%1 个图</translation>
    </message>
    <message>
        <source>%1 %2 of batch element %3 (%4)</source>
        <translation>批次元素 %3 的%1 %2（%4）</translation>
    </message>
    <message>
        <source>B is NaN where A is not, in %1: %2</source>
        <translation>B 为 NaN 而 A 不是，位于%1：%2</translation>
    </message>
    <message>
        <source>A is NaN where B is not, in %1: %2</source>
        <translation>A 为 NaN 而 B 不是，位于%1：%2</translation>
    </message>
    <message>
        <source>A and B are both NaN in %1: %2</source>
        <translation>A 和 B 都为 NaN，位于%1：%2</translation>
    </message>
    <message>
        <source>NaN from the inputs or parameters</source>
        <translation>NaN 来自输入或参数</translation>
    </message>
    <message>
        <source>output feature</source>
        <translation>输出特征</translation>
    </message>
    <message>
        <source>input feature</source>
        <translation>输入特征</translation>
    </message>
    <message>
        <source>; a fully masked query under 1.13 with need_weights=False gives NaN, 2.x&apos;s SDPA path gives 0 (its weights are 0, its output is out_proj.bias)</source>
        <translation>；在 1.13 下，need_weights=False 时完全被屏蔽的查询得到 NaN，2.x 的 SDPA 路径则得到 0（其权重为 0，其输出为 out_proj.bias）</translation>
    </message>
    <message>
        <source>; with need_weights=True a fully masked query gives NaN, while need_weights=False on 2.x&apos;s SDPA path gives 0 (%1 is on that path)</source>
        <translation>；need_weights=True 时完全被屏蔽的查询得到 NaN，而 2.x 的 SDPA 路径上 need_weights=False 得到 0（%1 走该路径）</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::StatusWidgets</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Time the worker thread spent in the forward pass</source>
        <translation>工作线程在前向计算中花费的时间</translation>
    </message>
    <message>
        <source>Time spent drawing the heatmaps</source>
        <translation>绘制热力图花费的时间</translation>
    </message>
    <message>
        <source>Memory held by the result: every intermediate tensor</source>
        <translation>结果占用的内存：所有中间张量</translation>
    </message>
    <message>
        <source>Stop the running computation (Esc); the picture stays.</source>
        <translation>停止正在进行的计算（Esc）；图片保持不变。</translation>
    </message>
    <message>
        <source>%1 / %2 blocks</source>
        <translation>%1 / %2 块</translation>
    </message>
    <message>
        <source>Computation cancelled</source>
        <translation>计算已取消</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>compute %1</source>
        <translation>计算 %1</translation>
    </message>
    <message>
        <source>render %1</source>
        <translation>绘制 %1</translation>
    </message>
    <message>
        <source>result %1</source>
        <translation>结果 %1</translation>
    </message>
    <message>
        <source>Out of date: showing the last computed result</source>
        <translation>已过期：显示的是上次计算的结果</translation>
    </message>
    <message>
        <source>batch element n = %1 of %2</source>
        <translation>批次元素 n = %1（共 %2 个）</translation>
    </message>
    <message>
        <source>Every map of this configuration does not fit in memory: the exact weights are computed stripe by stripe and each block of cells is shown as its mean or maximum (View: reduce). Zoom in with the wheel: the visible region is computed again, as exact cells once it is small enough; wheel out over the whole region to return. mhaviz-cli run --head H --queries A:B writes exact weights of a part.</source>
        <translation>此配置的全部图无法同时放入内存：精确权重按查询行条带逐条计算，每个单元块显示为其均值或最大值（视图：缩减方式）。用滚轮放大：可见区域会重新计算，区域足够小时显示精确单元；在已显示整个区域的图上向外滚动即可返回。mhaviz-cli run --head H --queries A:B 可写出部分的精确权重。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::TeachingTools</name>
    <message>
        <source>&amp;Walk-through</source>
        <translation>逐步讲解(&amp;W)</translation>
    </message>
    <message>
        <source>Cell &amp;breakdown</source>
        <translation>单元格分解(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Shape flow</source>
        <translation>形状流(&amp;S)</translation>
    </message>
    <message>
        <source>P&amp;resentation mode</source>
        <translation>演示模式(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;High contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <source>Open example “%1”</source>
        <translation>打开示例“%1”</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::TextView</name>
    <message>
        <source>&amp;Shade by</source>
        <translation>着色依据(&amp;S)</translation>
    </message>
    <message>
        <source>Whose weights shade the keys: one head, or the average over heads</source>
        <translation>用谁的权重给键着色：某一个头，或各头平均</translation>
    </message>
    <message>
        <source>Save the text view as shown to PNG, SVG or PDF</source>
        <translation>将当前显示的文本视图保存为 PNG、SVG 或 PDF</translation>
    </message>
    <message>
        <source>Average over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>The grid shows head %1 alone; the text view follows it</source>
        <translation>网格只显示头 %1；文本视图随之显示</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;: its weights shade the keys below</source>
        <translation>查询 %1“%2”：它的权重为下方的键着色</translation>
    </message>
    <message>
        <source>key bias_k (appended by add_bias_kv), weight %1: a key only, it has no query row</source>
        <translation>键 bias_k（由 add_bias_kv 追加），权重 %1：只是一个键，没有对应的查询行</translation>
    </message>
    <message>
        <source>key zero (all-zero key appended by add_zero_attn), weight %1: a key only, it has no query row</source>
        <translation>键 zero（由 add_zero_attn 追加的全零键），权重 %1：只是一个键，没有对应的查询行</translation>
    </message>
    <message>
        <source>key %1 &quot;%2&quot;: masked for this query (weight 0)</source>
        <translation>键 %1“%2”：对此查询被屏蔽（权重 0）</translation>
    </message>
    <message>
        <source>token %1 &quot;%2&quot;: as a key, weight %3 from the query shown; as the query, its weights shade the text</source>
        <translation>词元 %1“%2”：作为键，得到所显示查询的权重 %3；作为查询，它的权重为文本着色</translation>
    </message>
    <message>
        <source>key %1 &quot;%2&quot;: weight %3</source>
        <translation>键 %1“%2”：权重 %3</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Keys, shaded by the weight the query gives them</source>
        <translation>键，按查询给它们的权重着色</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>头 %1</translation>
    </message>
    <message>
        <source>query %1 &quot;%2&quot;</source>
        <translation>查询 %1“%2”</translation>
    </message>
    <message>
        <source>every key masked, its weights are NaN</source>
        <translation>所有键都被屏蔽，其权重为 NaN</translation>
    </message>
    <message>
        <source>darkest %1</source>
        <translation>最深 %1</translation>
    </message>
    <message>
        <source>cannot export a text view %1 pixels wide: the width must be 200 to 20000</source>
        <translation>无法导出宽 %1 像素的文本视图：宽度须为 200 到 20000</translation>
    </message>
    <message>
        <source>text view</source>
        <translation>文本视图</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::TokenView</name>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>No result yet.</source>
        <translation>尚无结果。</translation>
    </message>
    <message>
        <source>Pinned: query %1. Click it again or press Esc to release.</source>
        <translation>已固定：查询 %1。再次点击它或按 Esc 取消固定。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::ViewControls</name>
    <message>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>Which intermediate of F.multi_head_attention_forward the grid shows, in computation order: projected q/k/v per head, raw scores q·k/sqrt(head_dim), the merged additive mask, masked scores, softmax weights (before and after dropout), weights @ v, merged heads and out_proj output. Ctrl+PgDown / Ctrl+PgUp step through them.</source>
        <translation>网格显示 F.multi_head_attention_forward 的哪一个中间结果，按计算顺序依次为：每个头投影后的 q/k/v、原始分数 q·k/sqrt(head_dim)、合并后的加性掩码、掩码后的分数、softmax 权重（dropout 之前和之后）、权重 @ v、合并后的各头以及 out_proj 输出。用 Ctrl+PgDown / Ctrl+PgUp 逐一切换。</translation>
    </message>
    <message>
        <source>Batch element n shown (0..N-1). Every batch element has its own attention maps.</source>
        <translation>显示的批次元素 n（0..N-1）。每个批次元素都有自己的注意力图。</translation>
    </message>
    <message>
        <source>Show all heads in a grid, or one head large.</source>
        <translation>以网格显示所有头，或放大显示单个头。</translation>
    </message>
    <message>
        <source>+ average</source>
        <translation>+ 平均</translation>
    </message>
    <message>
        <source>Add the mean of the heads&apos; weights: what PyTorch returns as attn_output_weights with average_attn_weights=True.</source>
        <translation>添加各头权重的平均值：即 average_attn_weights=True 时 PyTorch 返回的 attn_output_weights。</translation>
    </message>
    <message>
        <source>Colour map. Signed stages (scores, q, k, v, outputs) are drawn with the diverging map centred on 0 unless grayscale is chosen.</source>
        <translation>色图。除非选择灰度，有符号的阶段（分数、q、k、v、输出）使用以 0 为中心的发散色图绘制。</translation>
    </message>
    <message>
        <source>per-head colour scale</source>
        <translation>每个头单独的色阶</translation>
    </message>
    <message>
        <source>Scale each map&apos;s colours to its own range. Off: one shared scale (fixed 0..1 for weights) so heads compare directly.</source>
        <translation>按每张图自身的取值范围缩放颜色。关闭时使用统一的色阶（权重固定为 0..1），便于直接比较各头。</translation>
    </message>
    <message>
        <source>mean of block</source>
        <translation>块均值</translation>
    </message>
    <message>
        <source>max of block</source>
        <translation>块最大值</translation>
    </message>
    <message>
        <source>When a map has more cells than screen pixels, each pixel shows the mean or the max of the block of cells it covers. Zoom in (mouse wheel) to see exact cells.</source>
        <translation>当图的单元格多于屏幕像素时，每个像素显示它所覆盖的单元格块的均值或最大值。放大（鼠标滚轮）可查看精确的单元格。</translation>
    </message>
    <message>
        <source>stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>batch element</source>
        <translation>批次元素</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>头</translation>
    </message>
    <message>
        <source>colormap</source>
        <translation>色图</translation>
    </message>
    <message>
        <source>big maps</source>
        <translation>大图</translation>
    </message>
    <message>
        <source>all heads</source>
        <translation>所有头</translation>
    </message>
    <message>
        <source>head %1 only</source>
        <translation>仅头 %1</translation>
    </message>
    <message>
        <source>automatic colour range</source>
        <translation>自动色阶范围</translation>
    </message>
    <message>
        <source>Weights and other unsigned stages: scale the shared colours from 0 to the largest value shown, so small differences use the whole colormap. Off: the fixed 0..1. The colour scale&apos;s title says which.</source>
        <translation>权重及其他无符号阶段：共享色阶从 0 到所显示的最大值，使细小差异也能用满整个色图。关闭时为固定的 0..1。色阶标题会注明所用的范围。</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::WalkthroughDock</name>
    <message>
        <source>Walk-through</source>
        <translation>逐步讲解</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Previous stage (Left arrow on the grid)</source>
        <translation>上一阶段（在网格上按左方向键）</translation>
    </message>
    <message>
        <source>Next stage (Right arrow on the grid)</source>
        <translation>下一阶段（在网格上按右方向键）</translation>
    </message>
    <message>
        <source>PyTorch (F.multi_head_attention_forward):</source>
        <translation>PyTorch（F.multi_head_attention_forward）：</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>第 %1 步，共 %2 步：%3</translation>
    </message>
</context>
<context>
    <name>mhaviz::ui::Workspaces</name>
    <message>
        <source>Explore</source>
        <translation>探索</translation>
    </message>
    <message>
        <source>The heatmap grid with the parameters and the head measures</source>
        <translation>热力图网格，以及参数和注意力头度量</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>The head view and the text view side by side, the grid small</source>
        <translation>注意力头视图与文本视图并排，网格缩小</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>A, B and B − A side by side: pin A, then change the settings</source>
        <translation>A、B 与 B − A 并排：先固定 A，再更改设置</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The layers × heads grid of a model; the docks show the layer selected</source>
        <translation>模型的层 × 注意力头网格；各停靠窗口显示所选的层</translation>
    </message>
    <message>
        <source>Teach</source>
        <translation>教学</translation>
    </message>
    <message>
        <source>The walk-through, the grid and the arithmetic of the clicked cell</source>
        <translation>逐步讲解、网格以及所点击单元格的算式</translation>
    </message>
    <message>
        <source>Workspaces</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Give the current workspace its default arrangement of docks back</source>
        <translation>将当前工作区的停靠窗口恢复为默认布局</translation>
    </message>
    <message>
        <source>&amp;Workspace</source>
        <translation>工作区(&amp;W)</translation>
    </message>
</context>
</TS>
