# expect-error
import circ2.a
