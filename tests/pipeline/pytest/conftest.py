# pytest over the pipeline's plain-Python modules (pipeline/scripts): importable by name, as the
# Snakefile imports them.
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "pipeline", "scripts"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "analysis"))  # the analysis scripts the results pages cite
