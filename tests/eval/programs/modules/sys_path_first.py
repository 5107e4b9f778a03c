import sys
import shapes
print(shapes.make("square", 2), sys.path[0].endswith("modules"))
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "shapes"))
import base as base_by_path
print(base_by_path.__name__, base_by_path.Shape is shapes.Shape, sorted(base_by_path.registry))
