#!/usr/bin/python3
"""ctest `notebook`: runs the tutorial notebook with nbclient and the ipykernel, as a user
would, and checks that every picture cell shows an inline SVG holding its tokens
(the cell's "mhaviz_expect_svg" metadata, make_tutorial.py) and that no cell failed.

    run_notebook.py NOTEBOOK TOOLS_DIR MHAVIZ_CLI
"""
import os
import sys
import tempfile

import nbclient
import nbformat


def main(notebook, tools, cli):
    os.environ["PYTHONPATH"] = tools + os.pathsep + os.environ.get("PYTHONPATH", "")
    os.environ["MHAVIZ_CLI"] = cli
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # the kernel's debugger notice
    nb = nbformat.read(notebook, as_version=4)
    with tempfile.TemporaryDirectory() as cwd:  # the notebook writes nothing beside itself
        nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": cwd}}).execute()
    problems = []
    pictures = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            if out.output_type == "error":
                problems.append(f"cell {i}: {out.ename}: {out.evalue}")
        expect = cell.metadata.get("mhaviz_expect_svg")
        if not expect:
            continue
        svgs = [out.data["image/svg+xml"] for out in cell.outputs
                if out.output_type == "execute_result" and "image/svg+xml" in out.get("data", {})]
        if len(svgs) != 1:
            problems.append(f"cell {i}: {len(svgs)} inline SVG pictures, expected 1")
            continue
        pictures += 1
        svg = svgs[0] if isinstance(svgs[0], str) else "".join(svgs[0])
        for text in expect:
            if f">{text}<" not in svg.replace("&amp;", "&"):
                problems.append(f"cell {i}: the SVG has no text \"{text}\"")
    for p in problems:
        print("FAIL:", p)
    print(f"notebook: {pictures} pictures checked, {len(problems)} problems")
    return 1 if problems or pictures == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
