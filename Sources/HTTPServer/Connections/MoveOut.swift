/// Moves the value out of `place`, leaving `empty` there.
///
/// For a class's stored property that is changed through calls (an array that may grow, a
/// buffer): `var output = moveOut(&self.output, leaving: OutputBuffer())`, change the local,
/// then store it back. Changed in place, the property is held in a modifying access across
/// those calls, and Swift then checks exclusivity at run time on every access to that property
/// anywhere in the module (docs/ARCHITECTURE.md, "Exclusivity checks"); moved out, the access
/// is two loads and stores the compiler checks statically.
@inline(__always)
func moveOut<Value: ~Copyable>(_ place: inout Value, leaving empty: consuming Value) -> Value {
    var taken = empty
    swap(&taken, &place)
    return taken
}
