"""The TF2 neural style transfer tutorial: the image is the only variable, Adam(0.02,
beta_1=0.99, epsilon=1e-1), clip_by_value(image, 0, 1) after each step; and the
TF1 form with AdamOptimizer(0.1).minimize(loss, var_list=[image])."""
import tensorflow as tf


def load_img(path_to_img):
    img = tf.io.read_file(path_to_img)
    img = tf.image.decode_image(img, channels=3)
    img = tf.image.convert_image_dtype(img, tf.float32)
    return img[tf.newaxis, :]


content_image = load_img("content.jpg")
style_image = load_img("style.jpg")
vgg = tf.keras.applications.VGG19(include_top=False, weights="imagenet")
vgg.trainable = False


def style_content_loss(outputs, targets):
    return tf.add_n([tf.reduce_mean((outputs[i] - targets[i]) ** 2) for i in range(len(targets))])


image = tf.Variable(content_image)
opt = tf.keras.optimizers.Adam(learning_rate=0.02, beta_1=0.99, epsilon=1e-1)
targets = vgg(style_image)


@tf.function()
def train_step(image):
    with tf.GradientTape() as tape:
        outputs = vgg(image)
        loss = style_content_loss(outputs, targets)
    grad = tape.gradient(loss, image)
    opt.apply_gradients([(grad, image)])
    image.assign(tf.clip_by_value(image, clip_value_min=0.0, clip_value_max=1.0))


for n in range(1000):
    train_step(image)

# The TF1 form: the generated image is the only variable the optimizer moves.
generated = tf.compat.v1.Variable(tf.random.uniform([1, 224, 224, 3]), name="generated")
tf1_loss = style_content_loss(vgg(generated), targets)
tf1_step = tf.compat.v1.train.AdamOptimizer(0.1).minimize(tf1_loss, var_list=[generated])
