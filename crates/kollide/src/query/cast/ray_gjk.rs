//! The GJK ray cast (van den Bergen 2004) for shapes known only by their support function.
