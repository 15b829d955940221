use kollide::math::{Pose3, Quat, Vec3};
use kollide::query::{contact, distance};
use kollide::shape::Capsule;

fn main() {
    for s in [1.0f32, 1e17] {
        let a = Capsule::new(s, s);
        let pa = Pose3::new(
            Vec3::splat(s),
            Quat::from_xyzw(0.5750937, 0.5750937, 0.5750937, 0.0883281).normalize(),
        );
        let pb = Pose3::from_translation(Vec3::splat(s));
        let c = contact(&a, &pa, &a, &pb, 0.0).unwrap();
        let moved = Pose3::from_translation(pb.translation - c.normal * c.distance * 1.001);
        println!(
            "{c:?}\n axis {:?} after {:?}",
            pa.rotation * Vec3::Y,
            distance(&a, &pa, &a, &moved).distance
        );
    }
}
